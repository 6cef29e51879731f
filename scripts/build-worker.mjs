// Builds the Worker into dist/worker: the entry module, plus one module for each part loaded on first
// use (`import()` in src) and the chunks they share. wrangler.jsonc runs this as its custom build and
// uploads the folder as is (no_bundle). wrangler's own bundler writes one file, in which every
// dynamically imported module is still compiled, and its wrapped dependencies evaluated differently,
// when an isolate starts; separate modules cost nothing until imported (`npm run bench startup`).
import { realpathSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { writeLlmsTexts } from "./lib/llms-txt.mjs";

// The project whose src/ is built: where wrangler (or npm) runs this script.
const ROOT = process.cwd();
export const OUT_DIR = join(ROOT, "dist", "worker");

/**
 * Dependencies this Worker never calls, replaced by small stand-ins (each file says why). Exact
 * import paths only: a package's subpath stays real unless listed itself.
 */
export const STAND_INS = {
  "@ai-sdk/gateway": "src/shims/ai-gateway.ts",
  capnweb: "src/shims/capnweb.ts",
  "@modelcontextprotocol/client": "src/shims/mcp-client.ts",
  "@modelcontextprotocol/client/validators/cf-worker": "src/shims/mcp-client-validator.ts",
  mimetext: "src/shims/mimetext.ts",
  "@oslojs/crypto/sha2": "src/shims/oslo-sha2.ts",
  "cron-schedule": "src/shims/cron-schedule.ts",
  "@modelcontextprotocol/server/_shims": "src/shims/mcp-server-shims.ts",
  // The SDK's own module, as its chunks import it.
  "./mcp/client/do-oauth-client-provider.js": "src/shims/mcp-oauth-provider.ts",
};

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

const standIns = {
  name: "stand-ins",
  setup(bundler) {
    const filter = new RegExp(`^(${Object.keys(STAND_INS).map(escape).join("|")})$`);
    bundler.onResolve({ filter }, (args) => ({ path: join(ROOT, STAND_INS[args.path]) }));
  },
};

// Node's built-ins come from workerd (the nodejs_compat flag), with or without the `node:` prefix.
const nodeBuiltins = builtinModules.flatMap((name) => [name, `node:${name}`]);

/** wrangler's esbuild options for workerd, with code splitting. */
export async function buildWorker({ minify = true, metafile = false } = {}) {
  const mode = JSON.stringify("production");
  // Chunk names carry content hashes: without this, wrangler would upload the previous builds' too.
  rmSync(OUT_DIR, { recursive: true, force: true });
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
    plugins: [standIns],
    logLevel: "warning",
  });
  // `wrangler types` names the Durable Object classes by the entry it uploads; their types are the source's.
  const source = '"../../src/index"';
  writeFileSync(
    join(OUT_DIR, "index.d.ts"),
    `export * from ${source};\nexport { default } from ${source};\n`,
  );
  return result;
}

// Run as a script (argv[1] may be a symbolic link to this file), not imported by the bench.
if (process.argv[1] && realpathSync(process.argv[1]) === import.meta.filename) {
  // BUILD_MINIFY=false: readable names in CPU profiles (bench/startup).
  await buildWorker({ minify: process.env.BUILD_MINIFY !== "false" });
  // Static assets beside the Worker: /llms.txt and /llms-full.txt from openapi.json and the guide.
  writeLlmsTexts(ROOT);
}
