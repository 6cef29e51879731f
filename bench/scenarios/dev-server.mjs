// /health on a server started as `npm run dev` starts it (the config's LOG_LEVEL, wrangler's default
// address reached as `localhost`, an interactive wrangler) against the baseline Worker and against the
// harness's own service (LOG_LEVEL=warn, 127.0.0.1, CI), all in alternating rounds of one run.
export async function run({ service, baseline, compare, ratio, startWranglerDev }) {
  const dev = await startWranglerDev({ asNpmRunDev: true });
  const rounds = 3;
  const duration = 4;
  const connections = 10;
  try {
    const r = await compare(
      {
        baseline: { url: `${baseline.url}/health` },
        harness: { url: `${service.url}/health` },
        dev: { url: `${dev.url}/health` },
      },
      { rounds, duration, connections },
    );
    const row = (name, label, extra = {}) => ({
      server: label,
      "req/s": r[name].rps,
      "p50 ms": r[name].p50,
      "p99 ms": r[name].p99,
      errors: r[name].errors,
      ...extra,
    });
    return {
      title: "GET /health: a plain `npm run dev` vs the harness's service vs the baseline",
      rows: [
        row("baseline", "baseline Worker"),
        row("harness", "service, bench harness", {
          "ratio to baseline": ratio(r.harness.rps, r.baseline.rps),
        }),
        row("dev", "service, as `npm run dev`", { "ratio to baseline": ratio(r.dev.rps, r.baseline.rps) }),
      ],
      notes: [
        `${connections} connections, ${rounds} alternating rounds of ${duration} s; medians. Target: both ratios >= 0.9.`,
        "The two setups differed by the service's own per-request log line at the default LOG_LEVEL=info " +
          "(wrangler dev relays every console line to its terminal): it is now written at debug level.",
      ],
    };
  } finally {
    await dev.stop();
  }
}
