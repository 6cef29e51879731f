import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { VISIBILITIES } from "./files-schema";
import { NOW, authorId, ownerId, teamId } from "./schema";

// What a delete keeps so that its undo is a real restore (same id, same key), for RESTORE_WINDOW_SECONDS;
// the hourly cron purges the rest. Beside schema.ts (drizzle.config.ts reads both).

/**
 * A deleted todo as it was, written in the batch that deletes it from todos_table (so every read, count
 * and the change log see a plain delete). Restoring inserts it back under its id: AUTOINCREMENT never
 * hands that id out again.
 */
export const deletedTodosTable = sqliteTable(
  "deleted_todos_table",
  {
    id: integer().primaryKey(),
    userId: integer(),
    title: text().notNull(),
    description: text().notNull(),
    completed: integer({ mode: "boolean" }).notNull(),
    scheduleAt: text(),
    completedAt: text(),
    // The tombstone's version (one past the last write): a restore comes back one above it.
    version: integer().notNull(),
    // Its attachments' keys (a JSON array), looked up again on restore.
    fileKeys: text().notNull(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
    deletedAt: text().notNull().default(NOW),
    orgId: teamId(),
    createdBy: authorId(),
    updatedBy: authorId(),
  },
  (t) => [index("deleted_todos_deleted_at_idx").on(t.deletedAt)],
);

/**
 * A deleted file's record and share links; its object stays in R2 under its key until the purge, and
 * every download of that key answers 404 meanwhile (src/files/file-trash.queries.ts).
 */
export const deletedFilesTable = sqliteTable(
  "deleted_files_table",
  {
    id: integer().primaryKey(),
    key: text().notNull(),
    userId: ownerId(),
    originalName: text().notNull(),
    size: integer().notNull(),
    contentType: text().notNull(),
    etag: text().notNull(),
    visibility: text({ enum: VISIBILITIES }).notNull(),
    // Its share links' rows (a JSON array of file_links_table rows), put back on restore.
    links: text().notNull(),
    createdAt: text().notNull(),
    deletedAt: text().notNull().default(NOW),
    orgId: teamId(),
  },
  (t) => [
    uniqueIndex("deleted_files_key_unique").on(t.key),
    index("deleted_files_user_idx").on(t.userId),
    index("deleted_files_org_idx").on(t.orgId),
    index("deleted_files_deleted_at_idx").on(t.deletedAt),
  ],
);
