// Builds the Worker into dist/worker: the entry module, plus one module for each part loaded on first
// use (`import()` in src) and the chunks they share. wrangler.jsonc runs this as its custom build and
// uploads the folder as is (no_bundle). wrangler's own bundler writes one file, in which every
// dynamically imported module is still compiled, and its wrapped dependencies evaluated differently,
// when an isolate starts; separate modules cost nothing until imported (`npm run bench startup`).
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import * as esbuild from "esbuild";
import { upToDate, writeStamp } from "./lib/build-stamp.mjs";
import { writeLlmsTexts } from "./lib/llms-txt.mjs";
import { packageFile, PURE_DECLARATIONS, withPureDeclarations } from "./lib/pure-declarations.mjs";
import { ALL_STAND_INS, standInFor } from "./lib/stand-ins.mjs";
import { writeIfChanged } from "./lib/write-if-changed.mjs";

// The project whose src/ is built: where wrangler (or npm) runs this script.
const ROOT = process.cwd();
export const OUT_DIR = join(ROOT, "dist", "worker");

/** Swaps each dependency listed in scripts/lib/stand-ins.mjs for its stand-in, noting it in `used`. */
const standIns = (used) => ({
  name: "stand-ins",
  setup(bundler) {
    bundler.onResolve({ filter: /.*/ }, (args) => {
      const standIn = standInFor(args.path, args.resolveDir, args.importer);
      if (!standIn) return undefined;
      used.add(standIn);
      return { path: join(ROOT, standIn) };
    });
  },
});

/** Wraps the declarations listed in scripts/lib/pure-declarations.mjs, noting each file in `used`. */
const pureDeclarations = (used) => ({
  name: "pure-declarations",
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/]node_modules[\\/].*\.m?js$/ }, (args) => {
      const file = packageFile(args.path);
      if (!Object.hasOwn(PURE_DECLARATIONS, file)) return undefined;
      used.add(file);
      return { contents: withPureDeclarations(file, readFileSync(args.path, "utf8")), loader: "js" };
    });
  },
});

// Node's built-ins come from workerd (the nodejs_compat flag), with or without the `node:` prefix.
const nodeBuiltins = builtinModules.flatMap((name) => [name, `node:${name}`]);

/** wrangler's esbuild options for workerd, with code splitting. */
export async function buildWorker({ minify = true, metafile = false } = {}) {
  const mode = JSON.stringify("production");
  const used = new Set();
  const wrapped = new Set();
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { index: "src/index.ts" },
    outdir: OUT_DIR,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    external: ["cloudflare:*", ...nodeBuiltins],
    target: "es2024",
    supported: { "import-source": true, using: true },
    loader: { ".js": "jsx", ".mjs": "jsx", ".cjs": "jsx" },
    define: {
      "process.env.NODE_ENV": mode,
      "global.process.env.NODE_ENV": mode,
      "globalThis.process.env.NODE_ENV": mode,
    },
    minify,
    keepNames: !minify,
    sourcemap: true,
    metafile,
    chunkNames: "chunks/[name]-[hash]",
    plugins: [standIns(used), pureDeclarations(wrapped)],
    logLevel: "warning",
    write: false,
  });
  // A dependency's update can rename or drop what a stand-in replaces: fail rather than ship it whole.
  const unused = ALL_STAND_INS.filter((path) => !used.has(path));
  if (unused.length)
    throw new Error(`Stand-ins that replaced nothing: ${unused.join(", ")} (scripts/lib/stand-ins.mjs)`);
  const unwrapped = Object.keys(PURE_DECLARATIONS).filter((file) => !wrapped.has(file));
  if (unwrapped.length)
    throw new Error(`Files not found to wrap: ${unwrapped.join(", ")} (scripts/lib/pure-declarations.mjs)`);
  // `wrangler types` names the Durable Object classes by the entry it uploads; their types are the source's.
  const source = '"../../src/index"';
  const types = `export * from ${source};\nexport { default } from ${source};\n`;
  syncOutput([...result.outputFiles, { path: join(OUT_DIR, "index.d.ts"), contents: Buffer.from(types) }]);
  return result;
}

/** Every file under `dir` (none when it does not exist). */
const filesUnder = (dir) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

/**
 * Makes OUT_DIR hold exactly `files`, writing only those that changed: a build of an unchanged src/
 * leaves dist/ untouched, so a `wrangler dev` already serving it (the test suites start several, side
 * by side) has nothing to reload. Chunk names carry content hashes, so the previous builds' chunks go,
 * or wrangler would upload them too.
 */
function syncOutput(files) {
  mkdirSync(OUT_DIR, { recursive: true });
  const wanted = new Set(files.map((file) => file.path));
  for (const path of filesUnder(OUT_DIR)) if (!wanted.has(path)) rmSync(path);
  for (const { path, contents } of files) writeIfChanged(path, contents);
}

/** Outside dist/worker, which wrangler uploads as it is. */
const STAMP = join(ROOT, "dist", "worker-inputs.json");
/**
 * What a build reads besides the modules esbuild names: this script, the stand-ins' table, the declarations
 * it wraps, configs, the lock.
 */
const BUILD_FILES = [
  "scripts/build-worker.mjs",
  "scripts/lib/stand-ins.mjs",
  "scripts/lib/pure-declarations.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

// Run as a script (argv[1] may be a symbolic link to this file), not imported by the bench.
if (process.argv[1] && realpathSync(process.argv[1]) === import.meta.filename) {
  // BUILD_MINIFY=false: readable names in CPU profiles (bench/startup).
  const options = { minify: process.env.BUILD_MINIFY !== "false" };
  // Skipped when every module it read, every file it wrote and BUILD_FILES are as the last build left them.
  if (!upToDate(ROOT, STAMP, options)) {
    const { metafile, outputFiles } = await buildWorker({ ...options, metafile: true });
    const written = [...outputFiles.map((file) => relative(ROOT, file.path)), "dist/worker/index.d.ts"];
    writeStamp(ROOT, STAMP, [...Object.keys(metafile.inputs), ...written, ...BUILD_FILES], options);
  }
  // Static assets beside the Worker: /llms.txt and /llms-full.txt from openapi.json and the guide.
  writeLlmsTexts(ROOT);
}
