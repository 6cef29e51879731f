import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Setup files run before each test file; applyD1Migrations skips migrations already applied.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Every data database wrangler.jsonc declares, found by name as the router finds them.
for (const [name, binding] of Object.entries(env)) {
  if (/^DB_SHARD_\d+$/.test(name)) await applyD1Migrations(binding as D1Database, env.TEST_SHARD_MIGRATIONS);
}
