// /health of the service against the baseline Worker's /health (both one D1 round trip).
export async function run({ service, baseline, compare, ratio }) {
  const rounds = 3;
  const duration = 4;
  const connections = 10;
  const r = await compare(
    { baseline: { url: `${baseline.url}/health` }, service: { url: `${service.url}/health` } },
    { rounds, duration, connections },
  );
  const row = (name, extra = {}) => ({
    worker: name,
    "req/s": r[name].rps,
    "p50 ms": r[name].p50,
    "p99 ms": r[name].p99,
    errors: r[name].errors,
    ...extra,
  });
  return {
    title: "GET /health vs baseline",
    rows: [row("baseline"), row("service", { "ratio to baseline": ratio(r.service.rps, r.baseline.rps) })],
    notes: [
      `${connections} connections, ${rounds} alternating rounds of ${duration} s; medians. Target: ratio >= 0.9.`,
    ],
  };
}
