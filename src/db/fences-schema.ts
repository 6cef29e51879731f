import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { NOW } from "./now";

/**
 * Workspaces whose rows this data database must no longer change: set by a move (src/shards/) before its
 * final copy and kept after the switch, so a request that resolved this database before the switch fails
 * here (503, Retry-After) instead of writing where nobody reads. BEFORE INSERT/UPDATE/DELETE triggers on
 * every data table RAISE(ABORT, 'workspace_fenced') for a fenced owner's rows; the mover's own deletes set
 * `suspended` inside their batch, which no other request can see.
 */
export const workspaceFencesTable = sqliteTable(
  "workspace_fences_table",
  {
    workspaceId: integer().primaryKey(),
    // The workspace's owner as its rows carry it: exactly one is set.
    userId: integer(),
    orgId: integer(),
    suspended: integer({ mode: "boolean" }).notNull().default(false),
    fencedAt: text().notNull().default(NOW),
  },
  (t) => [index("workspace_fences_user_idx").on(t.userId), index("workspace_fences_org_idx").on(t.orgId)],
);
