import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { notNullViolation } from "../db/errors";
import { NOW, todoAttachmentsTable, todosTable } from "../db/schema";
import type { AuditActor } from "../orgs/audit.queries";
import type { AttachmentFile } from "./attachments";
import { insertAttachments } from "./attachments.queries";
import { auditTeamTodo } from "./team-audit.queries";
import { reachable, type TodoReach } from "./todo-reach";
import { keepDeletedTodos } from "./todo-trash.queries";
import { findTodoInReach, type TodoFields, type TodoRow } from "./todos.queries";

// The todo writes in D1. Each raises the todo's version in the write's own statement; the change log
// (todo_changes_table) follows by trigger in the same transaction (migrations/0006_sync.sql).

/** completedAt follows completed: set when it turns true (kept if already done), cleared when false. */
function completedAtFor(completed: boolean): SQL {
  return completed ? sql`coalesce(${todosTable.completedAt}, ${NOW})` : sql`NULL`;
}

/** The versions an If-Match accepts; a write whose todo has none of them changes nothing. */
export type ExpectedVersions = readonly number[];

/** A conditional write whose todo exists but has moved past the versions the caller knew. */
export const STALE = "stale" as const;

/**
 * The version a write sets: one more than now. With `expected`, a todo at another version gets
 * NULL, which its NOT NULL column refuses: the whole batch then rolls back, the attachment
 * statements after the update included (they cannot see whether the update matched).
 */
function nextVersion(expected: ExpectedVersions | undefined): SQL {
  if (expected === undefined) return sql`${todosTable.version} + 1`;
  if (expected.length === 0) return sql`NULL`;
  return sql`CASE WHEN ${inArray(todosTable.version, [...expected])} THEN ${todosTable.version} + 1 END`;
}

/**
 * One ordered batch: update the todo, then (when `files` is given) delete the old
 * attachment rows and insert the new ones. D1 runs it as one transaction: if any statement
 * fails, the todo and its previous attachments stay as they were. Every statement repeats the
 * reach check (owner, or team role), so a foreign id changes nothing; with `expected`, neither does a
 * stale version. With `actor`, a team's todo is recorded in its audit trail in the same batch.
 */
export async function updateTodoWithAttachments(
  db: Db,
  id: number,
  reach: TodoReach,
  fields: TodoFields,
  files: readonly AttachmentFile[] | undefined,
  expected?: ExpectedVersions,
  actor?: AuditActor,
): Promise<TodoRow | null | typeof STALE> {
  const { completed, ...rest } = fields;
  const owned = and(eq(todosTable.id, id), reachable(reach, "data:write"));
  const update = db
    .update(todosTable)
    .set({
      ...rest,
      ...(completed === undefined ? {} : { completed, completedAt: completedAtFor(completed) }),
      version: nextVersion(expected),
      updatedAt: NOW,
      updatedBy: reach.userId,
    })
    .where(owned)
    .returning();
  const audit = actor ? [auditTeamTodo(db, actor, "todo.updated", sql`${id}`)] : [];
  const ownedTodo = db.select({ id: todosTable.id }).from(todosTable).where(owned);
  const replace: BatchItem<"sqlite">[] =
    files === undefined
      ? []
      : [
          db.delete(todoAttachmentsTable).where(inArray(todoAttachmentsTable.todoId, ownedTodo)),
          ...insertAttachments(db, sql`${ownedTodo}`, files),
        ];
  try {
    const [[row]] = await db.batch([update, ...audit, ...replace]);
    return row ?? null;
  } catch (err) {
    if (expected !== undefined && notNullViolation(err) === "todos_table.version") return STALE;
    throw err;
  }
}

/**
 * Deletes a todo in reach (with `expected`, only at one of those versions); its attachment rows go by
 * cascade, after the same batch has kept it all for a restore (and, with `actor`, recorded a team's
 * delete in its trail). The deleted todo's id, the version its tombstone carries, the scheduleAt it had
 * (its reminder goes too), its owner and when it was deleted; null if none, STALE if it exists at
 * another version.
 */
export async function deleteTodoInReach(
  db: Db,
  id: number,
  reach: TodoReach,
  expected?: ExpectedVersions,
  actor?: AuditActor,
): Promise<DeletedTodo | null | typeof STALE> {
  const owned = and(eq(todosTable.id, id), reachable(reach, "data:write"));
  const condition = expected === undefined ? owned : and(owned, inArray(todosTable.version, [...expected]));
  const remove = db.delete(todosTable).where(condition).returning({
    id: todosTable.id,
    version: todosTable.version,
    scheduleAt: todosTable.scheduleAt,
    userId: todosTable.userId,
    orgId: todosTable.orgId,
  });
  const audit = actor ? [auditTeamTodo(db, actor, "todo.deleted", sql`${id}`)] : [];
  const [[kept], [row]] = await db.batch([keepDeletedTodos(db, condition, reach.userId), remove, ...audit]);
  // The tombstone's version is one past the last (migrations/0006_sync.sql).
  if (row && kept) return { ...row, version: row.version + 1, deletedAt: kept.deletedAt };
  if (expected !== undefined && (await findTodoInReach(db, id, reach, "data:write"))) return STALE;
  return null;
}

export interface DeletedTodo {
  id: number;
  version: number;
  scheduleAt: string | null;
  userId: number | null;
  orgId: number | null;
  deletedAt: string;
}
