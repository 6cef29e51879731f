// Starts `wrangler dev --local` on a free loopback port and waits until /health answers.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { migrateLocal } from "./d1-migrations.mjs";

export const ROOT = join(import.meta.dirname, "..", "..");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

export async function freePort() {
  const { port, release } = await reservePort();
  await release();
  return port;
}

/**
 * A free loopback port held by a listener until `release()`: for a port named long before its server
 * starts (in a config, a CORS origin), which the servers started meanwhile must not be given.
 */
export function reservePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ port, release: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/**
 * @param {object} [options]
 * @param {string} [options.config] wrangler config file
 * @param {string} [options.persistTo] state directory (a fresh temp dir by default)
 * @param {Record<string,string>} [options.vars] extra `--var` values (JWT_SECRET is generated)
 * @param {boolean} [options.migrate] apply D1 migrations first (default true)
 * @param {boolean} [options.devVars] read the .dev.vars beside `config`, as `wrangler dev` does (default:
 *   an empty env file, so a developer's .dev.vars never changes a test)
 * @param {string} [options.readyPath] path that answers 200 once the Worker runs
 * @param {boolean} [options.asNpmRunDev] start it through `npm run dev` (its migrations, the config's
 *   LOG_LEVEL, wrangler's default address reached as `localhost`, an interactive wrangler, its banner);
 *   `config` does not apply
 */
export async function startWranglerDev(options = {}) {
  const config = options.config ?? join(ROOT, "wrangler.jsonc");
  const fresh = options.persistTo === undefined;
  const persistTo = options.persistTo ?? mkdtempSync(join(tmpdir(), "wrangler-state-"));
  const port = options.port ?? (await freePort());
  const asDev = options.asNpmRunDev === true;
  const vars = {
    JWT_SECRET: randomBytes(64).toString("base64url"),
    ...(asDev ? {} : { LOG_LEVEL: "warn", DRAIN_UNREAD_BODIES: "true" }),
    ...options.vars,
  };
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", ...(asDev ? {} : { CI: "true" }) };

  if (options.migrate !== false && !asDev) {
    if (fresh) cpSync(await migratedState(config, env), persistTo, { recursive: true });
    else await migrate(config, persistTo, env);
  }
  const inspectorPort = await freePort();
  const args = asDev ? ["run", "dev", "--"] : [WRANGLER, "dev", "--local", "-c", config];
  args.push("--port", String(port));
  if (!asDev) args.push("--ip", "127.0.0.1", "--show-interactive-dev-session=false");
  if (!asDev && options.devVars !== true) {
    // An empty env file instead of the developer's .dev.vars: tests run on the committed config and
    // the vars they pass, whatever .dev.vars holds. Not in persistTo: wrangler watches the file's
    // folder and reloads the Worker when D1 writes there.
    const envFile = join(mkdtempSync(join(tmpdir(), "wrangler-env-")), "empty.env");
    writeFileSync(envFile, "");
    args.push("--env-file", envFile);
  }
  args.push("--persist-to", persistTo, "--inspector-port", String(inspectorPort));
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`);
  const child = spawn(asDev ? "npm" : process.execPath, args, {
    // The config's own folder: wrangler runs its custom build command (scripts/build-worker.mjs) there.
    cwd: asDev ? ROOT : dirname(config),
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  // Keep only the tail: long benchmarks print a line per request.
  let output = "";
  const keep = (d) => (output = (output + d).slice(-65_536));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);

  const url = `http://${asDev ? "localhost" : "127.0.0.1"}:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${output}`);
    try {
      const res = await fetch(url + (options.readyPath ?? "/health"));
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      stopProcessGroup(child);
      throw new Error(`wrangler dev did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    port,
    /** The user Worker's DevTools inspector (http://127.0.0.1:<inspectorPort>/json lists it). */
    inspectorPort,
    persistTo,
    pid: child.pid,
    output: () => output,
    /** Ends wrangler and workerd (the whole process group this function started). */
    stop: (signal = "SIGTERM") => stopProcessGroup(child, signal),
  };
}

const migrate = (config, persistTo, env) => migrateLocal({ config, persistTo, env });

const MIGRATED = join(ROOT, "node_modules", ".cache", "migrated-d1");
const madeHere = new Map();

/**
 * A state folder with every D1 migration applied to fresh databases, made once per config and set of
 * migrations and kept under node_modules/.cache: applying 20-odd migrations (the directory's and each
 * shard's) costs wrangler some 20 s of CPU per database, which every fresh server of the e2e and browser tests used to pay; a copy costs milliseconds.
 */
function migratedState(config, env) {
  const hash = createHash("sha256").update(readFileSync(config));
  // How a fresh database is migrated and its ids started (scripts/lib/shard-sequences.mjs) counts too.
  for (const script of ["d1-migrations.mjs", "shard-sequences.mjs"]) {
    hash.update(readFileSync(join(import.meta.dirname, script)));
  }
  const migrations = join(dirname(config), "migrations");
  for (const name of readdirSync(migrations, { recursive: true }).map(String).toSorted()) {
    const path = join(migrations, name);
    if (name.endsWith(".sql")) hash.update(name).update(readFileSync(path));
  }
  const dir = join(MIGRATED, hash.digest("hex").slice(0, 16));
  if (!madeHere.has(dir))
    madeHere.set(dir, existsSync(dir) ? Promise.resolve(dir) : makeState(dir, config, env));
  return madeHere.get(dir);
}

async function makeState(dir, config, env) {
  mkdirSync(MIGRATED, { recursive: true });
  const made = mkdtempSync(join(MIGRATED, "making-"));
  try {
    await migrate(config, made, env);
    // Another test process may have made the same state meanwhile: either copy is right.
    if (!existsSync(dir)) renameSync(made, dir);
  } catch (err) {
    if (!existsSync(dir)) throw err;
  } finally {
    rmSync(made, { recursive: true, force: true });
  }
  return dir;
}

function stopProcessGroup(child, signal = "SIGTERM") {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    try {
      process.kill(-child.pid, signal);
    } catch {
      resolve();
    }
  });
}
