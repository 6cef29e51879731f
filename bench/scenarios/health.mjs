// /health of the service against the baseline Worker's /health (both one D1 round trip), twice: as the
// bench harness starts the service (LOG_LEVEL=warn, 127.0.0.1, CI) and as a plain `npm run dev` does
// (the config's LOG_LEVEL, wrangler's default address reached as `localhost`, an interactive wrangler).
import { ASSETS_NOTE } from "../lib.mjs";

export async function run({ service, baseline, baselineAssets, compare, pairedRatio, startWranglerDev }) {
  const dev = await startWranglerDev({ asNpmRunDev: true });
  const rounds = 6;
  const duration = 2;
  const connections = 10;
  try {
    const r = await compare(
      {
        baseline: { url: `${baseline.url}/health` },
        baselineAssets: { url: `${baselineAssets.url}/health` },
        service: { url: `${service.url}/health` },
        dev: { url: `${dev.url}/health` },
      },
      { rounds, duration, connections },
    );
    const row = (name, label, extra = {}) => ({
      worker: label,
      "req/s": r[name].rps,
      "p50 ms": r[name].p50,
      "p99 ms": r[name].p99,
      errors: r[name].errors,
      ...extra,
    });
    const toBaseline = (name) => ({
      "ratio to baseline": pairedRatio(r[name], r.baseline),
      "ratio to baseline with assets": pairedRatio(r[name], r.baselineAssets),
    });
    return {
      title: "GET /health vs baseline",
      rows: [
        row("baseline", "baseline"),
        row("baselineAssets", "baseline with static assets, as the service", {
          "ratio to baseline": pairedRatio(r.baselineAssets, r.baseline),
        }),
        row("service", "service, bench harness", toBaseline("service")),
        row("dev", "service, started as `npm run dev`", toBaseline("dev")),
      ],
      notes: [
        `${connections} connections, ${rounds} rounds of ${duration} s in alternating order; req/s and latency are medians over rounds, ratios the median of the same-round ratios. Target: both ratios >= 0.9.`,
        "The two setups differed by the service's own per-request log line at the default LOG_LEVEL=info " +
          "(wrangler dev relays every console line to its terminal): it is now written at debug level.",
        ASSETS_NOTE,
      ],
    };
  } finally {
    await dev.stop();
  }
}
