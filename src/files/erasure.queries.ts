import { and, asc, count, eq, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { orgMembersTable } from "../db/orgs-schema";
import { uploadsTable } from "../db/schema";
import { filesTable, pendingErasuresTable, storageReservationsTable } from "../db/files-schema";
import { deletedFilesTable } from "../db/trash-schema";

const queue = pendingErasuresTable;
export type QueuedObject = typeof queue.$inferSelect;

/**
 * Statements that queue every object key of a user for erasure: their own recorded files, deleted ones
 * still restorable, unfinished resumable uploads (with their R2 upload id) and single uploads in flight
 * (their reservations), and everything of the teams that go with the account (`soleOwnedOrgs`, a
 * subquery of their ids). Files they uploaded to other teams stay the team's: they are recorded
 * under the team's owner from then on. Run them in the batch that deletes the user, before the
 * cascade removes the rows they read.
 */
export function queueUserObjects(
  db: Db,
  userId: number,
  erasureId: string,
  soleOwnedOrgs: SQL,
): BatchItem<"sqlite">[] {
  const files = filesTable;
  const uploads = uploadsTable;
  const held = storageReservationsTable;
  const deleted = deletedFilesTable;
  // Drizzle lists every column of the table for INSERT ... SELECT: id, erasureId, key, r2UploadId.
  const from = (select: SQL) => db.insert(queue).select(select);
  // Uploads in progress for a team that goes too are queued with the team's objects, once.
  const notGoing = (orgId: SQLiteColumn) => sql`(${orgId} IS NULL OR ${orgId} NOT IN ${soleOwnedOrgs})`;
  return [
    from(
      sql`SELECT NULL, ${erasureId}, ${files.key}, NULL FROM ${files} WHERE ${files.userId} = ${userId} AND ${files.orgId} IS NULL`,
    ),
    from(
      sql`SELECT NULL, ${erasureId}, ${uploads.key}, ${uploads.r2UploadId} FROM ${uploads} WHERE ${uploads.userId} = ${userId}
        AND ${notGoing(uploads.orgId)}`,
    ),
    from(sql`SELECT NULL, ${erasureId}, ${held.key}, NULL FROM ${held} WHERE ${held.userId} = ${userId}
      AND ${notGoing(held.orgId)} AND NOT EXISTS (SELECT 1 FROM ${uploads} WHERE ${uploads.id} = ${held.id})`),
    from(
      sql`SELECT NULL, ${erasureId}, ${deleted.key}, NULL FROM ${deleted} WHERE ${deleted.userId} = ${userId} AND ${deleted.orgId} IS NULL`,
    ),
    ...queueOrgObjects(db, soleOwnedOrgs, erasureId),
    ...handOverTeamFiles(db, userId),
  ];
}

/** The owner of the team of a row's `orgId`. */
const teamOwner = (orgId: SQLiteColumn) =>
  sql`(SELECT ${orgMembersTable.userId} FROM ${orgMembersTable} WHERE ${orgMembersTable.orgId} = ${orgId} AND ${orgMembersTable.role} = 'owner')`;

/** A leaving account's team files become their team owner's record, so the user's cascade leaves them be. */
function handOverTeamFiles(db: Db, userId: number): BatchItem<"sqlite">[] {
  const files = filesTable;
  const deleted = deletedFilesTable;
  return [
    db
      .update(files)
      .set({ userId: sql`coalesce(${teamOwner(files.orgId)}, ${files.userId})` })
      .where(and(eq(files.userId, userId), isNotNull(files.orgId))),
    db
      .update(deleted)
      .set({ userId: sql`coalesce(${teamOwner(deleted.orgId)}, ${deleted.userId})` })
      .where(and(eq(deleted.userId, userId), isNotNull(deleted.orgId))),
  ];
}

/**
 * Statements that queue every object of the teams `orgIds` names (a team id, or a subquery of ids) for
 * erasure: recorded files, deleted ones still restorable, unfinished resumable uploads and single
 * uploads in flight; and that remove those uploads' rows (they have no foreign key to the team). Run
 * them in the batch that deletes the teams, before the cascade removes the rows they read.
 */
export function queueOrgObjects(db: Db, orgIds: number | SQL, erasureId: string): BatchItem<"sqlite">[] {
  const files = filesTable;
  const uploads = uploadsTable;
  const held = storageReservationsTable;
  const deleted = deletedFilesTable;
  const ofTeams = (column: SQLiteColumn) =>
    typeof orgIds === "number" ? sql`${column} = ${orgIds}` : sql`${column} IN ${orgIds}`;
  const from = (select: SQL) => db.insert(queue).select(select);
  return [
    from(sql`SELECT NULL, ${erasureId}, ${files.key}, NULL FROM ${files} WHERE ${ofTeams(files.orgId)}`),
    from(
      sql`SELECT NULL, ${erasureId}, ${uploads.key}, ${uploads.r2UploadId} FROM ${uploads} WHERE ${ofTeams(uploads.orgId)}`,
    ),
    from(sql`SELECT NULL, ${erasureId}, ${held.key}, NULL FROM ${held} WHERE ${ofTeams(held.orgId)}
      AND NOT EXISTS (SELECT 1 FROM ${uploads} WHERE ${uploads.id} = ${held.id})`),
    from(
      sql`SELECT NULL, ${erasureId}, ${deleted.key}, NULL FROM ${deleted} WHERE ${ofTeams(deleted.orgId)}`,
    ),
    db.delete(uploads).where(ofTeams(uploads.orgId)),
  ];
}

const ofErasure = (erasureId: string | undefined) =>
  erasureId === undefined ? undefined : eq(queue.erasureId, erasureId);

/** The oldest queued objects, of one erasure or of all. */
export function nextQueued(db: Db, erasureId: string | undefined, limit: number): Promise<QueuedObject[]> {
  return db.select().from(queue).where(ofErasure(erasureId)).orderBy(asc(queue.id)).limit(limit);
}

export async function countQueued(db: Db, erasureId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(queue).where(ofErasure(erasureId));
  return row?.n ?? 0;
}

/**
 * Drops the rows nextQueued() returned, up to the last one's id: ids only grow, so no row queued
 * since can be among them.
 */
export async function dropQueuedThrough(db: Db, erasureId: string | undefined, lastId: number) {
  await db.delete(queue).where(and(ofErasure(erasureId), lte(queue.id, lastId)));
}
