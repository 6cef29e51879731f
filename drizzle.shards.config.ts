import { defineConfig } from "drizzle-kit";

// The data databases: generates SQL into migrations/shards/, which wrangler applies to every DB_SHARD_<n>
// (migrations_dir in wrangler.jsonc). Triggers drizzle-kit cannot write are appended by hand, as in migrations/.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/db/data-schema.ts"],
  out: "./migrations/shards",
  casing: "camelCase",
});
