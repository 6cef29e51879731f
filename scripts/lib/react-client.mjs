// The React example in examples/react-client: install it when needed, build it, serve the build.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./wrangler-dev.mjs";

export const CLIENT_DIR = join(ROOT, "examples", "react-client");
/** openapi-typescript arguments, run in CLIENT_DIR: the service's openapi.json -> src/api/schema.d.ts. */
export const TYPES_ARGS = [
  "../../openapi.json",
  "--default-non-nullable",
  "false",
  "-o",
  "src/api/schema.d.ts",
];
const bin = (pkg, file) => join(CLIENT_DIR, "node_modules", pkg, file);

/** `npm install` in the client when node_modules is missing or older than its lock file. */
export function ensureClientInstalled() {
  const installed = join(CLIENT_DIR, "node_modules", ".package-lock.json");
  const lock = join(CLIENT_DIR, "package-lock.json");
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log("Installing examples/react-client dependencies…");
  // Through npm's own CLI when run by `npm run`, so the same npm installs both packages.
  const npm = process.env.npm_execpath;
  const [cmd, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  const result = spawnSync(cmd, [...args, "install", "--no-audit", "--no-fund"], {
    cwd: CLIENT_DIR,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("npm install in examples/react-client failed");
}

/** `tsc` over the client (strict, no emit). */
export function typecheckClient() {
  return run(process.execPath, [bin("typescript", "bin/tsc"), "-p", "tsconfig.json"]);
}

/** `vite build` of the client for the service at `apiOrigin`, into `outDir`. */
export function buildClient({ apiOrigin, outDir, agentsAuth = false }) {
  return run(process.execPath, [bin("vite", "bin/vite.js"), "build", "--outDir", outDir, "--emptyOutDir"], {
    VITE_API_ORIGIN: apiOrigin,
    VITE_AGENTS_AUTH: String(agentsAuth),
  });
}

/** `vite preview` of a build on a loopback port; resolves once it answers. */
export async function startPreview({ outDir, port }) {
  const child = spawn(
    process.execPath,
    [
      bin("vite", "bin/vite.js"),
      "preview",
      "--outDir",
      outDir,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--strictPort",
    ],
    { cwd: CLIENT_DIR, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vite preview exited:\n${output}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid, "SIGTERM");
      throw new Error(`vite preview did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        process.kill(-child.pid, "SIGTERM");
      }),
  };
}

function run(cmd, args, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: CLIENT_DIR,
      env: { ...process.env, ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${args.join(" ")} failed:\n${output}`)),
    );
  });
}
