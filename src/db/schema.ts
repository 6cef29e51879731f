import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { NOW } from "./now";

export { NOW };

const timestamps = {
  createdAt: text().notNull().default(NOW),
  updatedAt: text().notNull().default(NOW),
};

export const ROLES = ["user", "admin"] as const;

export const usersTable = sqliteTable(
  "users_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    username: text().notNull(),
    // NFKC + lower-case form of username: the UNIQUE index makes `Admin` and `ａｄｍｉｎ` collide.
    usernameKey: text().notNull(),
    name: text().notNull(),
    email: text().notNull(),
    age: integer(),
    role: text({ enum: ROLES }).notNull().default("user"),
    // Carried in every token as `ver`; a password or role change bumps it, ending older tokens.
    tokenVersion: integer().notNull().default(0),
    // Carried by every OAuth grant from its consent; an account recovery bumps it, ending older grants.
    grantVersion: integer().notNull().default(0),
    // When a link e-mailed to `email` was last used (verification, change, reset); null: never proven.
    emailVerifiedAt: text(),
    // An address asked for and not yet proven: it becomes `email` when its link is used.
    pendingEmail: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_username_key_unique").on(t.usernameKey),
    uniqueIndex("users_email_unique").on(t.email),
  ],
);

// Data tables (src/db/data-schema.ts) live in shards apart from users and teams: no foreign keys to them.
// A user's or team's rows go by explicit erasure (src/files/erasure.ts), not by cascade.

/** The owning user's id. */
export const ownerId = () => integer().notNull();

/** The key of a table with one row per user, such as a counter kept by triggers. */
export const perUserKey = () => integer().primaryKey();

// Password hashes live apart from profiles so no user query can select one by accident.
export const userCredentialsTable = sqliteTable("user_credentials_table", {
  userId: integer()
    .primaryKey()
    .references(() => usersTable.id, { onDelete: "cascade", onUpdate: "cascade" }),
  passwordHash: text().notNull(),
  updatedAt: timestamps.updatedAt,
});

/** A user who wrote something a team keeps: their work stays when they go, without their name (erasure nulls it). */
export const authorId = () => integer();

/** The team a row belongs to. */
export const teamId = () => integer();

/** The key of a table with one row per team. */
export const perTeamKey = () => integer().primaryKey();

/** A todo is a user's own (userId) or a team's (orgId), never both (src/core/owner.ts). */
export const todosTable = sqliteTable(
  "todos_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer(),
    title: text().notNull(),
    description: text().notNull().default(""),
    completed: integer({ mode: "boolean" }).notNull().default(false),
    scheduleAt: text(),
    completedAt: text(),
    // Raised by every write (src/todos/todos.queries.ts): the ETag and If-Match compare it.
    version: integer().notNull().default(1),
    ...timestamps,
    orgId: teamId(),
    createdBy: authorId(),
    updatedBy: authorId(),
  },
  (t) => [
    index("todos_user_id_idx").on(t.userId, t.id),
    index("todos_user_completed_id_idx").on(t.userId, t.completed, t.id),
    index("todos_org_id_idx").on(t.orgId, t.id),
    index("todos_org_completed_id_idx").on(t.orgId, t.completed, t.id),
    check("todos_one_owner", sql`("userId" IS NULL) <> ("orgId" IS NULL)`),
  ],
);

/**
 * Each user's todo totals, kept by the triggers in migrations/0003_todo_counts.sql on every insert,
 * delete and completion change, whatever the path. A list page reads this one row instead of
 * counting the user's index (D1 bills every row a count reads). A row exists only while its user
 * has todos.
 */
export const todoCountsTable = sqliteTable("todo_counts_table", {
  userId: perUserKey(),
  total: integer().notNull(),
  completed: integer().notNull(),
});

/** Each team's todo totals, kept like todoCountsTable (migrations/0019_team_todos.sql). */
export const orgTodoCountsTable = sqliteTable("org_todo_counts_table", {
  orgId: perTeamKey(),
  total: integer().notNull(),
  completed: integer().notNull(),
});

export const todoAttachmentsTable = sqliteTable(
  "todo_attachments_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    todoId: integer()
      .notNull()
      .references(() => todosTable.id, { onDelete: "cascade", onUpdate: "cascade" }),
    fileKey: text().notNull(),
    filePath: text().notNull(),
    fileSize: integer().notNull(),
    fileHash: text().notNull(),
    fileName: text().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("todo_attachments_todo_file_unique").on(t.todoId, t.fileKey)],
);

// A resumable upload in progress: the R2 multipart upload it drives and who may write to it.
export const uploadsTable = sqliteTable(
  "uploads_table",
  {
    // The public uploadId (a UUID); R2's own upload id stays server-side.
    id: text().primaryKey(),
    userId: ownerId(),
    key: text().notNull(),
    r2UploadId: text().notNull(),
    contentType: text().notNull(),
    partSize: integer().notNull(),
    // Declared by the client; null when unknown (part sizes are then checked on completion).
    size: integer(),
    expiresAt: text().notNull(),
    // Set by the request completing it (one at a time), until it answers or its claim lapses.
    completingAt: text(),
    createdAt: timestamps.createdAt,
    // The team it uploads for (null: its user's own).
    orgId: integer(),
  },
  (t) => [index("uploads_user_idx").on(t.userId), index("uploads_expires_at_idx").on(t.expiresAt)],
);

export const uploadPartsTable = sqliteTable(
  "upload_parts_table",
  {
    uploadId: text()
      .notNull()
      .references(() => uploadsTable.id, { onDelete: "cascade", onUpdate: "cascade" }),
    partNumber: integer().notNull(),
    etag: text().notNull(),
    size: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.partNumber] })],
);
