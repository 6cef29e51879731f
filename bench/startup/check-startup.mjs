// `wrangler check startup` driven from Node: one run's start-up CPU, upload size and CPU profile; and
// the service's build as scripts/build-worker.mjs makes it, module by module.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { buildWorker, OUT_DIR } from "../../scripts/build-worker.mjs";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";

const run = promisify(execFile);
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

/**
 * Builds the Worker in `cwd` as `wrangler deploy` would and profiles its start-up (evaluation of the
 * entry module and what it imports statically) in workerd. `activeMs` is what wrangler reports as
 * Active: the sampled time that was not idle, garbage collection included (`gcMs`). The upload is
 * minified unless `unminified`: the service's build reads BUILD_MINIFY, Workers that wrangler
 * bundles take `--minify`.
 */
export async function checkStartup(cwd, { unminified = false } = {}) {
  const outfile = join(mkdtempSync(join(tmpdir(), "startup-")), "startup.cpuprofile");
  const args = [WRANGLER, "check", "startup", "--outfile", outfile];
  if (unminified) args.push("--args=--minify=false");
  const { stdout, stderr } = await run(process.execPath, args, {
    cwd,
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      ...(unminified ? { BUILD_MINIFY: "false" } : {}),
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  const text = `${stdout}\n${stderr}`;
  const active = /Active: ([\d.]+) ms \(including ([\d.]+) ms garbage collection\)/.exec(text);
  const bundle = /Bundle: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(text);
  if (!active || !bundle) throw new Error(`unexpected wrangler check startup output:\n${text}`);
  return {
    activeMs: Number(active[1]),
    gcMs: Number(active[2]),
    bundleKiB: Number(bundle[1]),
    gzipKiB: Number(bundle[2]),
    profile: JSON.parse(readFileSync(outfile, "utf8")),
  };
}

/**
 * The service built by scripts/build-worker.mjs: each module's text by its path in the upload,
 * esbuild's metafile, and the outputs a new isolate evaluates (the entry and its static imports).
 */
export async function serviceBuild({ unminified = false } = {}) {
  const { metafile } = await buildWorker({ minify: !unminified, metafile: true });
  const outputs = Object.keys(metafile.outputs).filter((path) => path.endsWith(".js"));
  const modules = new Map(
    outputs.map((path) => [relative(OUT_DIR, join(ROOT, path)), readFileSync(join(ROOT, path), "utf8")]),
  );
  const atStartup = new Set();
  const visit = (path) => {
    if (atStartup.has(path)) return;
    atStartup.add(path);
    for (const { path: next, kind } of metafile.outputs[path].imports) {
      if (kind === "import-statement" && metafile.outputs[next]) visit(next);
    }
  };
  // Every lazily imported module is an entry point in the metafile too: start from src/index.ts's.
  visit(outputs.find((path) => metafile.outputs[path].entryPoint === "src/index.ts"));
  return { modules, meta: metafile, atStartup };
}
