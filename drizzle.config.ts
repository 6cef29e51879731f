import { defineConfig } from "drizzle-kit";

// The directory: generates SQL into migrations/, which wrangler applies to DB (`npm run db:migrate:local|remote`).
// Its schema lists the data tables too: the directory keeps its legacy copies of them for workspaces still on
// it, so drizzle-kit must not drop them. Those copies keep the foreign keys to users and teams they were made
// with; the declarations have none (shards), and 0021_shard_loads.sql was hand-edited to leave out the table
// rebuilds drizzle-kit wrote for that difference (its snapshot records the declarations).
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/db/directory-schema.ts", "./src/db/data-schema.ts"],
  out: "./migrations",
  casing: "camelCase",
});
