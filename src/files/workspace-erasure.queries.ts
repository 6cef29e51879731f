import { count, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { auditLogTable } from "../db/audit-schema";
import { notesTable } from "../db/notes-schema";
import { orgTodoCountsTable, todoCountsTable, todosTable } from "../db/schema";
import {
  idempotencyKeysTable,
  orgTodoSyncFloorsTable,
  todoChangesTable,
  todoSyncFloorsTable,
} from "../db/sync-schema";
import { deletedTodosTable } from "../db/trash-schema";
import type { Owner } from "../core/owner";

// Erasure as explicit steps per subject (issue 42): a workspace's rows live in its data database, apart
// from the directory's users and teams, so no cascade reaches them. Each step is one batch in one database
// and can run again: a delete that stopped half way is finished by its retry.

/** What a workspace's erasure removed, for the answer of a team's delete. */
export interface WorkspaceErasure {
  todos: number;
  auditEntries: number;
}

/**
 * Erases `owner`'s workspace in `db`, its data database: todos (attachment rows by cascade), their trash,
 * change log (after the todos, whose delete writes tombstones), counts and sync floors, notes, kept
 * Idempotency-Key answers, and a team's audit trail.
 */
export async function eraseWorkspaceRows(db: Db, owner: Owner): Promise<WorkspaceErasure> {
  const [[live], [trashed], [audit]] = await db.batch([
    db.select({ n: count() }).from(todosTable).where(ownedBy(todosTable, owner)),
    db.select({ n: count() }).from(deletedTodosTable).where(ownedBy(deletedTodosTable, owner)),
    db.select({ n: count() }).from(auditLogTable).where(teamAudit(owner)),
    db.delete(todosTable).where(ownedBy(todosTable, owner)),
    db.delete(deletedTodosTable).where(ownedBy(deletedTodosTable, owner)),
    db.delete(todoChangesTable).where(ownedBy(todoChangesTable, owner)),
    ...(owner.kind === "user"
      ? [
          db.delete(todoCountsTable).where(eq(todoCountsTable.userId, owner.userId)),
          db.delete(todoSyncFloorsTable).where(eq(todoSyncFloorsTable.userId, owner.userId)),
          db.delete(notesTable).where(eq(notesTable.userId, owner.userId)),
          db.delete(idempotencyKeysTable).where(eq(idempotencyKeysTable.userId, owner.userId)),
        ]
      : [
          db.delete(orgTodoCountsTable).where(eq(orgTodoCountsTable.orgId, owner.orgId)),
          db.delete(orgTodoSyncFloorsTable).where(eq(orgTodoSyncFloorsTable.orgId, owner.orgId)),
          db.delete(auditLogTable).where(teamAudit(owner)),
        ]),
  ]);
  return { todos: (live?.n ?? 0) + (trashed?.n ?? 0), auditEntries: audit?.n ?? 0 };
}

type Owned = typeof todosTable | typeof deletedTodosTable | typeof todoChangesTable;

const ownedBy = (t: Owned, owner: Owner) =>
  owner.kind === "user" ? eq(t.userId, owner.userId) : eq(t.orgId, owner.orgId);

const teamAudit = (owner: Owner) => (owner.kind === "org" ? eq(auditLogTable.orgId, owner.orgId) : sql`0`);

/**
 * A gone account's authorship in `db` (every data database): the todos and trash of teams keep their work
 * without their name, and their teams' audit entries without the actor.
 */
export async function forgetAuthor(db: Db, userId: number): Promise<void> {
  await db.batch([
    db.update(todosTable).set({ createdBy: null }).where(eq(todosTable.createdBy, userId)),
    db.update(todosTable).set({ updatedBy: null }).where(eq(todosTable.updatedBy, userId)),
    db.update(deletedTodosTable).set({ createdBy: null }).where(eq(deletedTodosTable.createdBy, userId)),
    db.update(deletedTodosTable).set({ updatedBy: null }).where(eq(deletedTodosTable.updatedBy, userId)),
    db.update(auditLogTable).set({ actorId: null }).where(eq(auditLogTable.actorId, userId)),
  ]);
}
