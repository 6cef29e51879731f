// `npm run db:migrate:local|remote`: `wrangler d1 migrations apply` for the directory (DB) and every
// shard (DB_SHARD_<n>) of wrangler.jsonc, each shard then given its id range
// (scripts/lib/shard-sequences.mjs). Local: one after another, into .wrangler/state or --persist-to. Remote:
// one after another, with wrangler's own output and confirmation prompt.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  d1Databases,
  describeApplied,
  migrateArgs,
  migrateLocal,
  sequenceArgs,
} from "./lib/d1-migrations.mjs";

const { values } = parseArgs({
  options: { remote: { type: "boolean" }, local: { type: "boolean" }, "persist-to": { type: "string" } },
});

if (values.remote) {
  const wrangler = join(import.meta.dirname, "..", "node_modules", "wrangler", "bin", "wrangler.js");
  for (const { binding } of d1Databases()) {
    for (const args of [migrateArgs(binding, { remote: true }), sequenceArgs(binding, { remote: true })]) {
      if (!args) continue;
      const { status } = spawnSync(process.execPath, [wrangler, ...args], { stdio: "inherit" });
      if (status !== 0) process.exit(status ?? 1);
    }
  }
} else {
  try {
    const applied = describeApplied(await migrateLocal({ persistTo: values["persist-to"] }));
    console.log(applied ? `Applied D1 migrations: ${applied}.` : "No D1 migrations to apply.");
  } catch (err) {
    console.error(err.message);
    process.exitCode = 1;
  }
}
