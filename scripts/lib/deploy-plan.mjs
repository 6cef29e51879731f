// What `npm run deploy` runs, as wrangler argument lists: create each D1 database of the config that the
// account lacks (a new shard is one line in wrangler.jsonc), migrate every one (a shard also gets its id
// range, scripts/lib/shard-sequences.mjs), then deploy. Migrations
// come before the code that needs them; `wrangler deploy` then finds each database by its name
// (wrangler 4 binds a `database_name` without an id to the account's database of that name).
import { migrateArgs, sequenceArgs } from "./d1-migrations.mjs";

/**
 * @param {{ binding: string, name: string }[]} databases the config's D1 databases (d1Databases())
 * @param {string[]} existing the names of the account's D1 databases (`wrangler d1 list --json`)
 */
export function deployPlan(databases, existing) {
  const have = new Set(existing);
  return [
    ...databases
      .filter((db) => !have.has(db.name))
      .map((db) => ["d1", "create", db.name, "--update-config=false"]),
    ...databases.flatMap((db) =>
      [migrateArgs(db.binding, { remote: true }), sequenceArgs(db.binding, { remote: true })].filter(Boolean),
    ),
    ["deploy"],
  ];
}
