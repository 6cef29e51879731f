// `npm run dev`: .dev.vars on first use, the D1 migrations, then `wrangler dev` with the arguments given
// (the npm script's and yours after `--`); once /health answers, where to go next. The migrations go to
// the state folder wrangler dev will use (`--persist-to`, when given).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { demoModelArgs } from "./lib/ai-demo.mjs";
import { devBanner, waitUntilUp } from "./lib/dev-banner.mjs";

const ROOT = join(import.meta.dirname, "..");
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const args = process.argv.slice(2);

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

node(join(ROOT, "scripts", "ensure-dev-vars.mjs"), []);
const persistTo = option("persist-to");
node(WRANGLER, [
  "d1",
  "migrations",
  "apply",
  "DB",
  "--local",
  ...(persistTo ? ["--persist-to", persistTo] : []),
]);

// No model configured: the offline demo model answers the chat, and the banner says so.
const devVarsFile = join(ROOT, ".dev.vars");
const demo = demoModelArgs(args, existsSync(devVarsFile) ? readFileSync(devVarsFile, "utf8") : "");
args.push(...demo);
if (!option("port")) args.push("--port", "8787");
const port = option("port");
const host = option("ip") && option("ip") !== "0.0.0.0" ? option("ip") : "localhost";
const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

const wrangler = spawn(process.execPath, [WRANGLER, "dev", ...args], { cwd: ROOT, stdio: "inherit" });
wrangler.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => wrangler.kill(signal));

if (await waitUntilUp(url, () => wrangler.exitCode !== null))
  process.stdout.write(devBanner(url, { demo: demo.length > 0 }));
