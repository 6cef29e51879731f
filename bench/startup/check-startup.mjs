// `wrangler check startup` driven from Node: one run's start-up CPU, bundle size and CPU profile.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";

const run = promisify(execFile);
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

/**
 * Builds the Worker in `cwd` as `wrangler deploy` would and profiles its start-up (module evaluation)
 * in workerd. `activeMs` is what wrangler reports as Active: the sampled time that was not idle,
 * garbage collection included (`gcMs`). The bundle is the minified upload, unless `unminified`.
 */
export async function checkStartup(cwd, { unminified = false } = {}) {
  const outfile = join(mkdtempSync(join(tmpdir(), "startup-")), "startup.cpuprofile");
  const args = [WRANGLER, "check", "startup", "--outfile", outfile];
  if (unminified) args.push("--args=--minify=false");
  const { stdout, stderr } = await run(process.execPath, args, {
    cwd,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
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

/** Builds the Worker in `cwd` with `wrangler deploy --dry-run`; the bundle's text and esbuild's metafile. */
export async function buildBundle(cwd, { unminified = false } = {}) {
  const outdir = mkdtempSync(join(tmpdir(), "bundle-"));
  const args = [WRANGLER, "deploy", "--dry-run", "--outdir", outdir, "--metafile", join(outdir, "meta.json")];
  if (unminified) args.push("--minify=false");
  await run(process.execPath, args, { cwd, env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
  return {
    code: readFileSync(join(outdir, "index.js"), "utf8"),
    meta: JSON.parse(readFileSync(join(outdir, "meta.json"), "utf8")),
  };
}
