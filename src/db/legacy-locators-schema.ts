import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspacesTable } from "./workspaces-schema";

/** What a key, token or id from before shards names: a file (live or deleted), a share link, a resumable upload, a chat. */
export const LOCATOR_KINDS = ["file", "link", "upload", "chat"] as const;

/**
 * Where the rows found by a key, token or id from before shards (which carry no owner) went when their
 * workspace moved off the directory: the shard mover records them in its copy, before the switch, so no
 * such link is ever lost. They name the workspace, not its shard, so later moves keep them true; the
 * workspace's delete takes them along.
 */
export const legacyLocatorsTable = sqliteTable(
  "legacy_locators_table",
  {
    kind: text({ enum: LOCATOR_KINDS }).notNull(),
    // The file key, the link id (a token's middle part), the upload id or the chat id.
    ref: text().notNull(),
    workspaceId: integer()
      .notNull()
      .references(() => workspacesTable.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.ref] }), index("legacy_locators_workspace_idx").on(t.workspaceId)],
);

export type Locator = Pick<typeof legacyLocatorsTable.$inferInsert, "kind" | "ref">;
