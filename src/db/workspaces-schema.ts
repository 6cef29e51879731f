import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { NOW } from "./now";
import { orgsTable } from "./orgs-schema";
import { usersTable } from "./schema";

// The directory's map of where each workspace's data lives (src/db/databases.ts reads it). A workspace is
// a user's personal data or a team's; its rows live in one data database, named by its binding.

/** Where a workspace's reads and writes go: "ready" on `shard`; "moving" to `targetShard` (reads and writes still on `shard`). */
export const WORKSPACE_STATES = ["ready", "moving"] as const;
export type WorkspaceState = (typeof WORKSPACE_STATES)[number];

export const workspacesTable = sqliteTable(
  "workspaces_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    // Exactly one of userId (personal) and orgId (team).
    userId: integer().references(() => usersTable.id, { onDelete: "cascade", onUpdate: "cascade" }),
    orgId: integer().references(() => orgsTable.id, { onDelete: "cascade" }),
    // The binding of the data database: "DB_SHARD_<n>", or LEGACY_SHARD.
    shard: text().notNull(),
    state: text({ enum: WORKSPACE_STATES }).notNull().default("ready"),
    targetShard: text(),
    // Bumped whenever `shard` or `state` changes: a cached route is current only at this version.
    version: integer().notNull().default(0),
    createdAt: text().notNull().default(NOW),
    updatedAt: text().notNull().default(NOW),
  },
  (t) => [
    uniqueIndex("workspaces_user_unique").on(t.userId),
    uniqueIndex("workspaces_org_unique").on(t.orgId),
    index("workspaces_shard_idx").on(t.shard),
    check("workspaces_one_owner", sql`("userId" IS NULL) <> ("orgId" IS NULL)`),
  ],
);

/**
 * How many workspaces each data database holds, kept by the triggers of migrations/0021_shard_loads.sql on
 * every insert, delete and move in workspaces_table: a new workspace goes to the shard with the fewest,
 * read from a handful of rows. A shard with no row holds none yet.
 */
export const shardLoadsTable = sqliteTable("shard_loads_table", {
  shard: text().primaryKey(),
  workspaces: integer().notNull(),
});
