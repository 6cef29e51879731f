// `npm run dev`: .dev.vars on first use, the D1 migrations and the React client's build (when its
// sources changed, into public/app/), then `wrangler dev` with the arguments given (the npm script's
// and yours after `--`); once /health answers, where to go next. The migrations (the directory's and every
// shard's, scripts/lib/d1-migrations.mjs) go to the state folder wrangler dev will use (`--persist-to`,
// when given). Quiet: one line for the migrations, one for the build, one for wrangler's table of
// bindings (scripts/lib/quiet-wrangler.mjs).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { demoModelArgs } from "./lib/ai-demo.mjs";
import { describeApplied, migrateLocal } from "./lib/d1-migrations.mjs";
import { devBanner, waitUntilUp } from "./lib/dev-banner.mjs";
import { buildServedClient, ensureClientInstalled } from "./lib/react-client.mjs";

const ROOT = join(import.meta.dirname, "..");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const args = process.argv.slice(2);
const verbose = process.env.DEV_VERBOSE === "1";

/** The value of the last `--name value` or `--name=value` in args. */
function option(name) {
  let value;
  args.forEach((arg, i) => {
    if (arg === `--${name}`) value = args[i + 1];
    else if (arg.startsWith(`--${name}=`)) value = arg.slice(name.length + 3);
  });
  return value;
}

const node = (script, scriptArgs) => {
  const { status } = spawnSync(process.execPath, [script, ...scriptArgs], { cwd: ROOT, stdio: "inherit" });
  if (status !== 0) process.exit(status ?? 1);
};

/**
 * Applies the D1 migrations to the directory and every shard; wrangler's tables (printed again after
 * each migration) only on failure or with DEV_VERBOSE=1.
 */
async function migrate(persistTo) {
  const onOutput = verbose ? (_binding, output) => process.stdout.write(output) : undefined;
  try {
    const applied = describeApplied(await migrateLocal({ persistTo, skipApplied: true, onOutput }));
    if (applied) console.log(`Applied D1 migrations to the local databases: ${applied}.`);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}

/** The client's build for /app/, when its sources changed; a failed build leaves /app/ unbuilt, not the API. */
async function buildClient() {
  try {
    if (await buildServedClient()) console.log("Built the React client for /app/ (it had changed).");
  } catch (err) {
    console.error(`The React client did not build, so /app/ is missing:\n${err.message}`);
  }
}

node(join(ROOT, "scripts", "ensure-dev-vars.mjs"), []);
ensureClientInstalled({ quiet: true });
await Promise.all([migrate(option("persist-to")), buildClient()]);

// No model configured: the offline demo model answers the chat, and the banner says so.
const devVarsFile = join(ROOT, ".dev.vars");
const demo = demoModelArgs(args, existsSync(devVarsFile) ? readFileSync(devVarsFile, "utf8") : "");
args.push(...demo);
if (!option("port")) args.push("--port", "8787");
const port = option("port");
const host = option("ip") && option("ip") !== "0.0.0.0" ? option("ip") : "localhost";
const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

const quiet = join(ROOT, "scripts", "lib", "quiet-wrangler.mjs");
const env = verbose
  ? process.env
  : { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import="${quiet}"`.trim() };
const wrangler = spawn(process.execPath, [WRANGLER, "dev", ...args], { cwd: ROOT, env, stdio: "inherit" });
let refused = false;
wrangler.on("exit", (code, signal) => process.exit(refused ? 1 : (code ?? (signal ? 1 : 0))));
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => wrangler.kill(signal));

const started = await waitUntilUp(url, () => wrangler.exitCode !== null);
if (started.up) process.stdout.write(devBanner(url, { demo: demo.length > 0 }));
if (started.refused) {
  refused = true;
  console.error(`\nThe service refuses to start:\n  ${started.refused}\n`);
  wrangler.kill("SIGTERM");
}
