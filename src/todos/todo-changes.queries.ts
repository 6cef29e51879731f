import { and, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { todosTable } from "../db/schema";
import { todoChangesTable, todoSyncFloorsTable } from "../db/sync-schema";
import type { TodoRow } from "./todos.queries";

export type TodoChangeRow = typeof todoChangesTable.$inferSelect;

export interface ChangesSince {
  /** Changes after the cursor, oldest first; `todo` is the row as it stands when this is its latest change. */
  changes: { change: TodoChangeRow; todo: TodoRow | null }[];
  hasMore: boolean;
  /** The highest change id purged from this user's log (0 when none): a cursor below it is stale. */
  purgedThrough: number;
  /** The user's latest change id (0 when none). */
  latest: number;
}

/**
 * A user's changes after change `after`, at most `limit`. The todo joins only where its version is the
 * change's: an older change of a todo changed again is listed without the row, whose later change
 * follows (in this page or the next). The floor is read after the changes: a purge between the two
 * reads then shows as a stale cursor rather than as changes silently missing.
 */
export async function changesSince(
  db: Db,
  userId: number,
  after: number,
  limit: number,
): Promise<ChangesSince> {
  const c = todoChangesTable;
  // Alone, not in a batch: D1's batch answers rows as objects, where the join's shared column names collide.
  const rows = await db
    .select({ change: c, todo: todosTable })
    .from(c)
    .leftJoin(todosTable, and(eq(todosTable.id, c.todoId), eq(todosTable.version, c.version)))
    .where(and(eq(c.userId, userId), gt(c.id, after)))
    .orderBy(c.id)
    .limit(limit + 1);
  const [floor, latest] = await db.batch([
    db
      .select({ purgedThrough: todoSyncFloorsTable.purgedThrough })
      .from(todoSyncFloorsTable)
      .where(eq(todoSyncFloorsTable.userId, userId)),
    db.select({ id: c.id }).from(c).where(eq(c.userId, userId)).orderBy(desc(c.id)).limit(1),
  ]);
  return {
    changes: rows.slice(0, limit),
    hasMore: rows.length > limit,
    purgedThrough: floor[0]?.purgedThrough ?? 0,
    latest: latest[0]?.id ?? 0,
  };
}

const PURGE_CHUNK = 5_000;

/**
 * Removes up to PURGE_CHUNK changes written before `before`, first raising each user's floor to the
 * highest id removed, in one batch. Answers how many went.
 */
export async function purgeChangesBefore(db: Db, before: string): Promise<number> {
  const c = todoChangesTable;
  const chunk = db
    .select({ id: c.id })
    .from(c)
    .where(lt(c.createdAt, before))
    .orderBy(c.id)
    .limit(PURGE_CHUNK);
  const floors = todoSyncFloorsTable;
  const [, removed] = await db.batch([
    db
      .insert(floors)
      .select(
        db
          .select({ userId: c.userId, purgedThrough: sql<number>`max(${c.id})`.as("purgedThrough") })
          .from(c)
          .where(inArray(c.id, chunk))
          .groupBy(c.userId),
      )
      .onConflictDoUpdate({
        target: floors.userId,
        set: { purgedThrough: sql`max(${floors.purgedThrough}, excluded.purgedThrough)` },
      }),
    db.delete(c).where(inArray(c.id, chunk)).returning({ id: c.id }),
  ]);
  return removed.length;
}
