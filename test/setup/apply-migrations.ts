import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { shardNumber, shardSequenceStatements } from "../../scripts/lib/shard-sequences.mjs";

// Setup files run before each test file; applyD1Migrations skips migrations already applied, and the
// sequences' seeding changes nothing the second time.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Every data database wrangler.jsonc declares, found by name as the router finds them.
for (const [name, binding] of Object.entries(env)) {
  const n = shardNumber(name);
  if (n === null) continue;
  const shard = binding as D1Database;
  await applyD1Migrations(shard, env.TEST_SHARD_MIGRATIONS);
  await shard.batch(shardSequenceStatements(n).map((statement) => shard.prepare(statement)));
}
