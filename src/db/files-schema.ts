import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { NOW, ownerId, perTeamKey, perUserKey, teamId } from "./schema";

// Who owns which stored object, what they may still store, how they share it, and what a deleted
// user left to erase. Beside schema.ts (drizzle.config.ts reads both).

export const VISIBILITIES = ["public", "private"] as const;

// A file, reservation or deleted file with a team (teamId()) is the team's; `userId` is then the member
// who uploaded it, and the team's owner once that account is gone.

/**
 * Every completed upload, single or resumable, recorded when its object becomes visible. The id
 * grows with each record, so "newest first" pages by id: a file recorded while someone pages lands
 * before their cursor, never among the pages still to come.
 */
export const filesTable = sqliteTable(
  "files_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    key: text().notNull(),
    userId: ownerId(),
    originalName: text().notNull(),
    size: integer().notNull(),
    contentType: text().notNull(),
    etag: text().notNull(),
    visibility: text({ enum: VISIBILITIES }).notNull().default("public"),
    createdAt: text().notNull().default(NOW),
    orgId: teamId(),
  },
  (t) => [
    uniqueIndex("files_key_unique").on(t.key),
    index("files_user_id_idx").on(t.userId, t.id),
    index("files_org_id_idx").on(t.orgId, t.id),
  ],
);

/**
 * Each user's stored bytes and files, kept by the triggers in migrations/0005_files.sql on every
 * insert and delete of files_table, so a quota check reads one row. A row exists only while its
 * user has files.
 */
export const storageUsageTable = sqliteTable("storage_usage_table", {
  userId: perUserKey(),
  bytes: integer().notNull(),
  files: integer().notNull(),
});

/** Each team's stored bytes and files, kept like storageUsageTable by the triggers of its migration. */
export const orgStorageUsageTable = sqliteTable("org_storage_usage_table", {
  orgId: perTeamKey(),
  bytes: integer().notNull(),
  files: integer().notNull(),
});

/**
 * Room held for an upload between its quota check and its record: a single upload's size once its
 * body has ended, a resumable upload's declared size (or its parts so far) from the start. Only
 * unexpired rows count; the hourly cron removes expired ones and any object they left unrecorded.
 * A resumable upload's reservation has the upload's id.
 */
export const storageReservationsTable = sqliteTable(
  "storage_reservations_table",
  {
    id: text().primaryKey(),
    userId: ownerId(),
    key: text().notNull(),
    bytes: integer().notNull(),
    expiresAt: text().notNull(),
    orgId: teamId(),
  },
  (t) => [
    index("storage_reservations_user_idx").on(t.userId, t.expiresAt),
    index("storage_reservations_expires_at_idx").on(t.expiresAt),
    index("storage_reservations_org_idx").on(t.orgId, t.expiresAt),
  ],
);

/** A share link: its token is the id signed with a key derived from JWT_SECRET (src/files/link-tokens.ts). */
export const fileLinksTable = sqliteTable(
  "file_links_table",
  {
    id: text().primaryKey(),
    fileId: integer()
      .notNull()
      .references(() => filesTable.id, { onDelete: "cascade", onUpdate: "cascade" }),
    expiresAt: text().notNull(),
    // Null: as many downloads as the link's lifetime allows.
    maxDownloads: integer(),
    downloads: integer().notNull().default(0),
    revokedAt: text(),
    createdAt: text().notNull().default(NOW),
  },
  (t) => [index("file_links_file_idx").on(t.fileId, t.createdAt)],
);

/**
 * Objects of deleted users still to remove from R2. No user foreign key: the user is gone, and these
 * rows must outlive them until the cron has erased every object.
 */
export const pendingErasuresTable = sqliteTable(
  "pending_erasures_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    // One per deleted user, so the request that deleted them can erase a small set itself.
    erasureId: text().notNull(),
    key: text().notNull(),
    // Set for an unfinished resumable upload, whose multipart upload is aborted as well.
    r2UploadId: text(),
  },
  (t) => [index("pending_erasures_erasure_idx").on(t.erasureId, t.id)],
);
