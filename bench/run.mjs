// `npm run bench [scenario ...]`: starts the service and the baseline Worker (wrangler dev --local,
// loopback) when a chosen scenario needs them, and runs each bench/scenarios/*.mjs in the same run,
// printing markdown tables.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startWranglerDev } from "../scripts/lib/wrangler-dev.mjs";
import { compare, load, pairedRatio, ratio, round, toMarkdown } from "./lib.mjs";

const only = process.argv.slice(2);
const scenarioDir = join(import.meta.dirname, "scenarios");
const names = readdirSync(scenarioDir)
  .filter((f) => f.endsWith(".mjs"))
  .map((f) => f.slice(0, -4))
  .filter((name) => only.length === 0 || only.includes(name))
  .toSorted((a, b) => (a === "health" ? -1 : b === "health" ? 1 : a.localeCompare(b)));

const scenarios = Object.fromEntries(
  await Promise.all(names.map(async (name) => [name, await import(join(scenarioDir, `${name}.mjs`))])),
);
// Scenarios that build and profile Workers themselves (startup) need no dev servers.
const needsServers = Object.values(scenarios).some((scenario) => scenario.needsServers !== false);

const startBaseline = async (config) => {
  const worker = await startWranglerDev({
    config: join(ROOT, "bench", "baseline", config),
    migrate: false,
    vars: {},
  });
  await fetch(`${worker.url}/setup`, { method: "POST" });
  return worker;
};
const service = needsServers ? await startWranglerDev() : undefined;
const baseline = needsServers ? await startBaseline("wrangler.jsonc") : undefined;
// The same Worker behind wrangler dev's static-assets router, as the service runs: a reference row.
const baselineAssets = needsServers ? await startBaseline("wrangler.assets.jsonc") : undefined;

const sections = [
  `# npm run bench — ${new Date().toISOString()}`,
  "",
  `Node ${process.version}, service and baseline on wrangler dev --local (loopback). Ratios are same-run.`,
  "",
];
let failed = false;
try {
  for (const name of names) {
    const scenario = scenarios[name];
    process.stderr.write(`bench: ${name}\n`);
    try {
      const result = await scenario.run({
        service,
        baseline,
        baselineAssets,
        load,
        compare,
        pairedRatio,
        ratio,
        round,
        startWranglerDev,
        ROOT,
      });
      const results = Array.isArray(result) ? result : [result];
      for (const r of results) {
        const md = toMarkdown(r);
        console.log(`${md}\n`);
        sections.push(md, "");
      }
    } catch (err) {
      failed = true;
      const message = `### ${name}\n\nFAILED: ${err instanceof Error ? err.stack : err}`;
      console.log(`${message}\n`);
      sections.push(message, "");
    }
  }
} finally {
  await Promise.all([service?.stop(), baseline?.stop(), baselineAssets?.stop()]);
}
mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
writeFileSync(join(ROOT, "bench", "results", "latest.md"), sections.join("\n"));
process.exitCode = failed ? 1 : 0;
