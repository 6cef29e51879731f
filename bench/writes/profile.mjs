// Where a write's CPU goes: the isolate's CPU profile (inspector Profiler) while writes run against an
// unminified build of the service, self time grouped by source module (src files by path, dependencies
// by package, the rest as V8 and workerd name it).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildWorker, OUT_DIR } from "../../scripts/build-worker.mjs";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";
import { openInspector, signUp } from "../lib.mjs";
import { selfTimeByPackage, sourceModuleOf, top } from "../startup/attribution.mjs";
import { openServiceFeed } from "./listeners.mjs";

/** Each .js module of the build by its path in the upload. */
function builtModules() {
  const files = readdirSync(OUT_DIR, { recursive: true }).filter((f) => String(f).endsWith(".js"));
  return new Map(files.map((f) => [String(f), readFileSync(join(OUT_DIR, String(f)), "utf8")]));
}

/** Self ms per source module over `seconds` of writes, for each request variant in `variants`. */
export async function profileWrites(
  { startWranglerDev, load },
  variants,
  { seconds = 6, connections = 32 } = {},
) {
  // The service's build reads BUILD_MINIFY (scripts/build-worker.mjs): readable module markers.
  process.env.BUILD_MINIFY = "false";
  let service;
  try {
    service = await startWranglerDev();
  } finally {
    delete process.env.BUILD_MINIFY;
  }
  const results = {};
  try {
    const modules = builtModules();
    const user = await signUp(service.url);
    const feed = await openServiceFeed(service.url, user);
    const inspector = await openInspector(service.inspectorPort);
    mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
    await inspector.call("Profiler.enable");
    await inspector.call("Profiler.setSamplingInterval", { interval: 250 });
    for (const [name, variant] of Object.entries(variants)) {
      const target = { url: `${service.url}/api/todos`, connections, ...variant(user) };
      await load({ ...target, duration: 2 });
      await inspector.call("Profiler.start");
      const { requests } = await load({ ...target, duration: seconds });
      const { profile } = await inspector.call("Profiler.stop");
      writeFileSync(join(ROOT, "bench", "results", `writes-${name}.cpuprofile`), JSON.stringify(profile));
      results[name] = { totals: selfTimeByPackage(profile, modules, sourceModuleOf), requests };
    }
    inspector.close();
    await feed.close();
  } finally {
    await service.stop();
    // As bench/scenarios/startup.mjs leaves it: dist/worker holds the minified build again.
    await buildWorker();
  }
  return Object.fromEntries(
    Object.entries(results).map(([name, { totals, requests }]) => {
      const busy = [...totals].filter(([key]) => key !== "(idle)").reduce((sum, [, ms]) => sum + ms, 0);
      return [
        name,
        { busy, requests, top: top(new Map([...totals].filter(([key]) => key !== "(idle)")), 15) },
      ];
    }),
  );
}
