// SQL against a running wrangler dev's local D1 from outside (wrangler d1 execute / migrations apply).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";

const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

function wrangler(args) {
  const env = { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" };
  const result = spawnSync(process.execPath, [WRANGLER, ...args], { cwd: ROOT, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`wrangler ${args[1]}: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** The rows of one SELECT on `binding` of the Worker configured by `config`, persisted at `persistTo`. */
export function d1Select(config, persistTo, binding, sqlText) {
  const out = wrangler([
    "d1",
    "execute",
    binding,
    "--local",
    "--persist-to",
    persistTo,
    "-c",
    config,
    "--json",
    "--command",
    sqlText,
  ]);
  return JSON.parse(out)[0].results;
}

/** Applies the binding's migrations (its migrations_dir) to the local database at `persistTo`. */
export function d1Migrate(config, persistTo, binding) {
  wrangler(["d1", "migrations", "apply", binding, "--local", "--persist-to", persistTo, "-c", config]);
}
