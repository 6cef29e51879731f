import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { NOW, ownerId, perTeamKey, perUserKey, teamId } from "./schema";

// What lets clients follow and retry writes: the todo change log behind delta sync, and the answers
// kept for Idempotency-Key retries. Beside schema.ts (drizzle.config.ts reads both).

export const TODO_CHANGE_KINDS = ["created", "updated", "deleted"] as const;

/**
 * One row per todo write, written by the triggers in migrations/0006_sync.sql in the write's own
 * transaction, whatever the path. The AUTOINCREMENT id is the delta-sync cursor: D1 runs one write
 * at a time, so ids appear in commit order and a reader never sees a later id before an earlier
 * one. A delete leaves a tombstone (`deleted`). Rows older than the horizon are purged hourly.
 */
export const todoChangesTable = sqliteTable(
  "todo_changes_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    // The todo's owner, as in todos_table: a user's log, or a team's.
    userId: integer(),
    orgId: teamId(),
    // No foreign key: a tombstone outlives its todo.
    todoId: integer().notNull(),
    kind: text({ enum: TODO_CHANGE_KINDS }).notNull(),
    version: integer().notNull(),
    createdAt: text().notNull().default(NOW),
  },
  (t) => [
    index("todo_changes_user_id_idx").on(t.userId, t.id),
    index("todo_changes_org_id_idx").on(t.orgId, t.id),
    index("todo_changes_created_at_idx").on(t.createdAt),
  ],
);

/**
 * The highest change id purged per user: a cursor below it may have missed changes, so it is
 * answered 410 (sync again in full).
 */
export const todoSyncFloorsTable = sqliteTable("todo_sync_floors_table", {
  userId: perUserKey(),
  purgedThrough: integer().notNull(),
});

/** The same floor for each team's log. */
export const orgTodoSyncFloorsTable = sqliteTable("org_todo_sync_floors_table", {
  orgId: perTeamKey(),
  purgedThrough: integer().notNull(),
});

export const IDEMPOTENCY_STATES = ["in_flight", "done"] as const;

/**
 * A request sent with an Idempotency-Key, per user, route and key: in flight until it answers; a
 * 2xx answer is kept for replays (24 h), any other answer frees the key. A write that takes its key
 * in its own batch is never in flight: the key and its result are written with it, or nothing is.
 */
export const idempotencyKeysTable = sqliteTable(
  "idempotency_keys_table",
  {
    userId: ownerId(),
    route: text().notNull(),
    key: text().notNull(),
    // SHA-256 of method, path and body; null while a streamed body is still being read.
    fingerprint: text(),
    state: text({ enum: IDEMPOTENCY_STATES }).notNull(),
    status: integer(),
    // The answer's headers that matter (JSON object) and its body, sealed (src/idempotency/sealed-answers.ts).
    headers: text(),
    body: text(),
    // Or, for a write that keeps its key in its own batch (POST /api/todos), the rows it wrote as
    // JSON, from which the route answers again (src/idempotency/keyed-writes.ts).
    result: text(),
    createdAt: text().notNull().default(NOW),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.route, t.key] }),
    index("idempotency_keys_created_at_idx").on(t.createdAt),
  ],
);
