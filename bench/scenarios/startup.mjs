// Start-up CPU (module evaluation, what every new isolate pays) of the service, of the bare baseline
// Worker and of a Worker holding only the agents' SDK classes, with `wrangler check startup` in
// alternating order; then where the service's start-up time and bundle bytes go, by package.
import { join } from "node:path";
import { bytesByPackage, selfTimeByPackage, top } from "../startup/attribution.mjs";
import { checkStartup, serviceBuild } from "../startup/check-startup.mjs";

/** This scenario builds and profiles Workers itself: no wrangler dev servers. */
export const needsServers = false;

const ROUNDS = 5;
const PROFILES = 3;
const TOP = 15;

const median = (values) => {
  const sorted = values.toSorted((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export async function run({ ROOT, round }) {
  const workers = {
    service: ROOT,
    baseline: join(ROOT, "bench", "baseline"),
    agentsFloor: join(ROOT, "bench", "agents-floor"),
  };
  const names = Object.keys(workers);
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of i % 2 ? names.toReversed() : names) runs[name].push(await checkStartup(workers[name]));
  }
  // The bare baseline often evaluates within one sampling interval (~1 ms) and reads 0 ms: its ratios
  // use only the rounds where it registered time, and the same-round difference is shown beside them.
  const perRound = (name, other) => {
    const ratios = runs[name]
      .map((r, i) => r.activeMs / runs[other][i].activeMs)
      .filter((ratio) => Number.isFinite(ratio));
    return ratios.length ? round(median(ratios), 2) : "n/a (0 ms in every round)";
  };
  const overBaseline = (name) =>
    round(median(runs[name].map((r, i) => r.activeMs - runs.baseline[i].activeMs)), 1);
  const row = (name, label, extra = {}) => ({
    worker: label,
    "start-up CPU ms (median)": median(runs[name].map((r) => r.activeMs)),
    "of which GC ms": median(runs[name].map((r) => r.gcMs)),
    "min ms": Math.min(...runs[name].map((r) => r.activeMs)),
    "bundle KiB": runs[name][0].bundleKiB,
    "gzip KiB": runs[name][0].gzipKiB,
    ...extra,
  });

  // Attribution needs the unminified build: its module markers name the code each sample ran.
  const profiles = [];
  for (let i = 0; i < PROFILES; i++) profiles.push((await checkStartup(ROOT, { unminified: true })).profile);
  const { modules } = await serviceBuild({ unminified: true });
  const self = new Map();
  for (const profile of profiles) {
    for (const [key, ms] of selfTimeByPackage(profile, modules)) {
      self.set(key, (self.get(key) ?? 0) + ms / PROFILES);
    }
  }
  // Last, so dist/worker holds the minified build again.
  const { meta, atStartup } = await serviceBuild();
  const kib = (bytes) => round(bytes / 1024, 1);
  const loaded = bytesByPackage(meta, atStartup);

  return [
    {
      title: "Start-up CPU (wrangler check startup)",
      rows: [
        row("baseline", "bare baseline (bench/baseline)"),
        row("agentsFloor", "agents' SDK classes only (bench/agents-floor)", {
          "ms over baseline": overBaseline("agentsFloor"),
          "ratio to baseline": perRound("agentsFloor", "baseline"),
        }),
        row("service", "service", {
          "ms over baseline": overBaseline("service"),
          "ratio to baseline": perRound("service", "baseline"),
          "ratio to agents floor": perRound("service", "agentsFloor"),
        }),
      ],
      notes: [
        `${ROUNDS} rounds in alternating order; start-up CPU is wrangler's Active time (sampled, not idle, garbage collection included), ratios the median of the same-round ratios. Targets: service <= 30 ms, bundle < 512 KiB gzip.`,
        "The agents floor is a Worker that only exports CounterAgent and ChatAgent on the Agents SDK: every isolate of the service evaluates at least that much.",
      ],
    },
    {
      title: "Service start-up self time by package (unminified build)",
      rows: top(self, TOP).map(([what, ms]) => ({
        "package or V8 category": what,
        "ms (mean)": round(ms, 1),
      })),
      notes: [
        `Mean of ${PROFILES} profiles. Self time: the time in a package's own code, so the zod schemas another package builds at its top level count as zod's.`,
      ],
    },
    {
      title: "Service modules by package (minified, esbuild metafile)",
      rows: top(bytesByPackage(meta), TOP).map(([what, bytes]) => ({
        package: what,
        "KiB in the upload": kib(bytes),
        "KiB evaluated at start-up": kib(loaded.get(what) ?? 0),
      })),
      notes: [
        `Start-up evaluates ${atStartup.size} of the build's ${Object.keys(meta.outputs).filter((p) => p.endsWith(".js")).length} modules (the entry and its static imports, ${kib([...loaded.values()].reduce((a, b) => a + b, 0))} KiB); the rest load on first use.`,
      ],
    },
  ];
}
