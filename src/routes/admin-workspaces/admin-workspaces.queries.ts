import { count, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { filesTable } from "../../db/files-schema";
import { todosTable } from "../../db/schema";
import { workspacesTable } from "../../db/workspaces-schema";

export type WorkspaceRow = typeof workspacesTable.$inferSelect;

export async function findWorkspaceById(db: Db, id: number): Promise<WorkspaceRow | null> {
  const [row] = await db.select().from(workspacesTable).where(eq(workspacesTable.id, id));
  return row ?? null;
}

export function findWorkspacesOf(db: Db, owner: { userId?: number; orgId?: number }) {
  const where =
    owner.userId !== undefined
      ? eq(workspacesTable.userId, owner.userId)
      : eq(workspacesTable.orgId, owner.orgId!);
  return db.select().from(workspacesTable).where(where);
}

/** Workspaces per shard, and how many are moving out of each. */
export function workspacesPerShard(db: Db) {
  return db
    .select({
      shard: workspacesTable.shard,
      workspaces: count(),
      moving: sql<number>`sum(${workspacesTable.state} = 'moving')`,
    })
    .from(workspacesTable)
    .groupBy(workspacesTable.shard);
}

/** A data database's todos and files (every workspace's: an admin's view of its load). */
export async function rowsOfShard(db: Db) {
  const [[todos], [files]] = await db.batch([
    db.select({ n: count() }).from(todosTable),
    db.select({ n: count() }).from(filesTable),
  ]);
  return { todos: todos?.n ?? 0, files: files?.n ?? 0 };
}
