import { defineConfig } from "drizzle-kit";

// Generates SQL into migrations/, which wrangler applies (`npm run db:migrate:local|remote`).
export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./src/db/schema.ts",
    "./src/db/credentials-schema.ts",
    "./src/db/files-schema.ts",
    "./src/db/sync-schema.ts",
    "./src/db/chats-schema.ts",
    "./src/db/usage-schema.ts",
    "./src/db/trash-schema.ts",
    "./src/db/notes-schema.ts",
    "./src/db/orgs-schema.ts",
  ],
  out: "./migrations",
  casing: "camelCase",
});
