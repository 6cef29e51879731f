// The React example in examples/react-client: install it when needed, build it, serve the build.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./wrangler-dev.mjs";

export const CLIENT_DIR = join(ROOT, "examples", "react-client");
/** Where the service's static assets hold the client's build: the Worker serves it at /app/. */
export const SERVED_BUILD = join(ROOT, "public", "app");
/** openapi-typescript arguments, run in CLIENT_DIR: the service's openapi.json -> src/api/schema.d.ts. */
export const TYPES_ARGS = [
  "../../openapi.json",
  "--default-non-nullable",
  "false",
  "-o",
  "src/api/schema.d.ts",
];
const bin = (pkg, file) => join(CLIENT_DIR, "node_modules", pkg, file);

/**
 * Whether node_modules holds every package at the version package-lock.json names. By content, not
 * by date: a fresh checkout (a git worktree, say) has a newer lock file than the same installed tree.
 */
function clientInstalled() {
  const installedFile = join(CLIENT_DIR, "node_modules", ".package-lock.json");
  if (!existsSync(installedFile)) return false;
  const installed = JSON.parse(readFileSync(installedFile, "utf8")).packages ?? {};
  const locked = JSON.parse(readFileSync(join(CLIENT_DIR, "package-lock.json"), "utf8")).packages ?? {};
  return Object.entries(locked).every(
    ([path, pkg]) => path === "" || pkg.optional || installed[path]?.version === pkg.version,
  );
}

/** `npm install` in the client when a package of its lock file is missing or at another version. */
export function ensureClientInstalled({ quiet = false } = {}) {
  if (clientInstalled()) return;
  console.log("Installing examples/react-client dependencies…");
  // Through npm's own CLI when run by `npm run`, so the same npm installs both packages.
  const npm = process.env.npm_execpath;
  const [cmd, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  const quietArgs = quiet ? ["--loglevel=error"] : [];
  const result = spawnSync(cmd, [...args, "install", "--no-audit", "--no-fund", ...quietArgs], {
    cwd: CLIENT_DIR,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("npm install in examples/react-client failed");
}

/** `tsc` over the client (strict, no emit). */
export function typecheckClient() {
  // The service's tsgo (TypeScript's native port): the same check as the client's own `tsc`, in a
  // quarter of the time the browser tests' setup used to wait for it.
  return run(process.execPath, [
    join(ROOT, "node_modules", "@typescript", "native-preview", "bin", "tsgo"),
    "-p",
    "tsconfig.json",
  ]);
}

/**
 * `vite build` of the client (at /app/) into `outDir`: by default for the service that serves it (its
 * own origin); with `apiOrigin`, for a service on another origin, which must list the page's origin in
 * CORS_ORIGINS.
 */
export function buildClient({ apiOrigin = "", outDir, agentsAuth = false }) {
  return run(process.execPath, [bin("vite", "bin/vite.js"), "build", "--outDir", outDir, "--emptyOutDir"], {
    VITE_API_ORIGIN: apiOrigin,
    VITE_AGENTS_AUTH: String(agentsAuth),
    VITE_CONFIG_NATIVE_IGNORE_WARNING: "true",
  });
}

/** The newest modification time of `path`, a file or a folder's files (node_modules left out). */
function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path)
    .filter((name) => name !== "node_modules")
    .reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

const CLIENT_SOURCES = ["src", "public", "index.html", "vite.config.ts", "package-lock.json"];

/**
 * The build the service serves at /app/ (SERVED_BUILD), made only when a source of the client changed
 * since the last one (about 10 s; nothing otherwise). Resolves true when it built.
 */
export async function buildServedClient({ agentsAuth = false } = {}) {
  const built = newestChange(join(SERVED_BUILD, "index.html"));
  const changed = Math.max(...CLIENT_SOURCES.map((name) => newestChange(join(CLIENT_DIR, name))));
  if (built > changed) return false;
  await buildClient({ outDir: SERVED_BUILD, agentsAuth });
  return true;
}

/** `vite preview` of a build on a loopback port (the page at /app/); resolves once it answers. */
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
  const url = `http://127.0.0.1:${port}/app/`;
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
