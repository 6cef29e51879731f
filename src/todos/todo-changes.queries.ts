import { and, desc, eq, gt, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Owner } from "../core/owner";
import type { Db } from "../db/client";
import { todosTable } from "../db/schema";
import { orgTodoSyncFloorsTable, todoChangesTable, todoSyncFloorsTable } from "../db/sync-schema";
import type { TodoRow } from "./todos.queries";

export type TodoChangeRow = typeof todoChangesTable.$inferSelect;

export interface ChangesSince {
  /** Changes after the cursor, oldest first; `todo` is the row as it stands when this is its latest change. */
  changes: { change: TodoChangeRow; todo: TodoRow | null }[];
  hasMore: boolean;
  /** The highest change id purged from this owner's log (0 when none): a cursor below it is stale. */
  purgedThrough: number;
  /** The owner's latest change id (0 when none). */
  latest: number;
}

/** The floor of `owner`'s log, as a query. */
function floorOf(db: Db, owner: Owner) {
  if (owner.kind === "user") {
    const f = todoSyncFloorsTable;
    return db.select({ purgedThrough: f.purgedThrough }).from(f).where(eq(f.userId, owner.userId));
  }
  const f = orgTodoSyncFloorsTable;
  return db.select({ purgedThrough: f.purgedThrough }).from(f).where(eq(f.orgId, owner.orgId));
}

const changesOf = (owner: Owner) =>
  owner.kind === "user" ? eq(todoChangesTable.userId, owner.userId) : eq(todoChangesTable.orgId, owner.orgId);

/**
 * A user's or a team's changes after change `after`, at most `limit`. The todo joins only where its version is the
 * change's: an older change of a todo changed again is listed without the row, whose later change
 * follows (in this page or the next). The floor is read after the changes: a purge between the two
 * reads then shows as a stale cursor rather than as changes silently missing.
 */
export async function changesSince(
  db: Db,
  owner: Owner,
  after: number,
  limit: number,
): Promise<ChangesSince> {
  const c = todoChangesTable;
  // Alone, not in a batch: D1's batch answers rows as objects, where the join's shared column names collide.
  const rows = await db
    .select({ change: c, todo: todosTable })
    .from(c)
    .leftJoin(todosTable, and(eq(todosTable.id, c.todoId), eq(todosTable.version, c.version)))
    .where(and(changesOf(owner), gt(c.id, after)))
    .orderBy(c.id)
    .limit(limit + 1);
  const [floor, latest] = await db.batch([
    floorOf(db, owner),
    db.select({ id: c.id }).from(c).where(changesOf(owner)).orderBy(desc(c.id)).limit(1),
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
 * Removes up to PURGE_CHUNK changes written before `before`, first raising each user's and each team's
 * floor to the highest id removed, in one batch. Answers how many went.
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
  const orgFloors = orgTodoSyncFloorsTable;
  const highest = sql<number>`max(${c.id})`.as("purgedThrough");
  const [, , removed] = await db.batch([
    db
      .insert(floors)
      .select(
        db
          .select({ userId: sql<number>`${c.userId}`.as("userId"), purgedThrough: highest })
          .from(c)
          .where(and(inArray(c.id, chunk), isNotNull(c.userId)))
          .groupBy(c.userId),
      )
      .onConflictDoUpdate({
        target: floors.userId,
        set: { purgedThrough: sql`max(${floors.purgedThrough}, excluded.purgedThrough)` },
      }),
    db
      .insert(orgFloors)
      .select(
        db
          .select({ orgId: sql<number>`${c.orgId}`.as("orgId"), purgedThrough: highest })
          .from(c)
          .where(and(inArray(c.id, chunk), isNotNull(c.orgId)))
          .groupBy(c.orgId),
      )
      .onConflictDoUpdate({
        target: orgFloors.orgId,
        set: { purgedThrough: sql`max(${orgFloors.purgedThrough}, excluded.purgedThrough)` },
      }),
    db.delete(c).where(inArray(c.id, chunk)).returning({ id: c.id }),
  ]);
  return removed.length;
}
