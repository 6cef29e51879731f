import { and, eq, gt, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { NOW, todoAttachmentsTable, todosTable } from "../db/schema";
import { deletedTodosTable } from "../db/trash-schema";
import type { AuditActor } from "../orgs/audit.queries";
import type { AttachmentFile } from "./attachments";
import { insertAttachments } from "./attachments.queries";
import { auditTeamTodo } from "./team-audit.queries";
import { reachable, type TodoReach } from "./todo-reach";
import type { TodoRow } from "./todos.queries";

// A deleted todo kept for its restore: written in the delete's batch, put back by the restore's.

const trash = deletedTodosTable;
export type DeletedTodoRow = typeof trash.$inferSelect;

/**
 * The statement that keeps the todos `where` selects (their attachment keys included) before the same
 * batch deletes them, `deletedBy` as their last author. Returns when each was deleted.
 */
export function keepDeletedTodos(db: Db, where: SQL | undefined, deletedBy: number) {
  const t = todosTable;
  const a = todoAttachmentsTable;
  const keys = sql`(SELECT json_group_array(${a.fileKey}) FROM (SELECT * FROM ${a} WHERE ${a.todoId} = ${t.id} ORDER BY ${a.id}) AS ${a})`;
  // Drizzle lists every column of the table for INSERT ... SELECT, in declaration order.
  return db
    .insert(trash)
    .select(
      sql`SELECT ${t.id}, ${t.userId}, ${t.title}, ${t.description}, ${t.completed}, ${t.scheduleAt},
        ${t.completedAt}, ${t.version} + 1, ${keys}, ${t.createdAt}, ${t.updatedAt}, ${NOW}, ${t.orgId},
        ${t.createdBy}, ${deletedBy} FROM ${t} WHERE ${where}`,
    )
    .returning({ deletedAt: trash.deletedAt });
}

export async function findDeletedTodo(db: Db, id: number, reach: TodoReach): Promise<DeletedTodoRow | null> {
  const [row] = await db
    .select()
    .from(trash)
    .where(and(eq(trash.id, id), reachable(reach, "data:write", trash)))
    .limit(1);
  return row ?? null;
}

/** The attachment keys a deleted todo had, in order. */
export const fileKeysOf = (row: DeletedTodoRow): string[] => JSON.parse(row.fileKeys) as string[];

/**
 * Puts a deleted todo back under its id, one version above its tombstone, with the attachment rows
 * for `files`, and forgets it, in one batch; only while it was deleted after `since`. The change log
 * and the counts follow by trigger (a `created` change). Null when it is not (or no longer) in the
 * trash: another restore took it, or the purge did.
 */
export async function restoreDeletedTodo(
  db: Db,
  id: number,
  reach: TodoReach,
  since: string,
  files: readonly AttachmentFile[],
  actor?: AuditActor,
): Promise<TodoRow | null> {
  const restorable = and(eq(trash.id, id), reachable(reach, "data:write", trash), gt(trash.deletedAt, since));
  const insert = db
    .insert(todosTable)
    .select(
      sql`SELECT ${trash.id}, ${trash.userId}, ${trash.title}, ${trash.description}, ${trash.completed},
        ${trash.scheduleAt}, ${trash.completedAt}, ${trash.version} + 1, ${trash.createdAt}, ${NOW},
        ${trash.orgId}, ${trash.createdBy}, ${reach.userId} FROM ${trash} WHERE ${restorable}`,
    )
    .returning();
  const kept = sql`SELECT ${trash.id} AS id FROM ${trash} WHERE ${restorable}`;
  const audit = actor ? [auditTeamTodo(db, actor, "todo.restored", sql`${id}`)] : [];
  const [rows] = await db.batch([
    insert,
    ...audit,
    ...insertAttachments(db, kept, files),
    db.delete(trash).where(restorable),
  ]);
  return rows[0] ?? null;
}

/** Forgets the todos deleted at or before `cutoff`: they can no longer be restored. */
export async function purgeDeletedTodos(db: Db, cutoff: string): Promise<number> {
  const gone = await db.delete(trash).where(lte(trash.deletedAt, cutoff)).returning({ id: trash.id });
  return gone.length;
}
