import { and, asc, count, eq, lte, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { uploadsTable } from "../db/schema";
import { filesTable, pendingErasuresTable, storageReservationsTable } from "../db/files-schema";
import { deletedFilesTable } from "../db/trash-schema";

const queue = pendingErasuresTable;
export type QueuedObject = typeof queue.$inferSelect;

/**
 * Statements that queue every object key of a user for erasure: recorded files, deleted ones still
 * restorable, unfinished resumable uploads (with their R2 upload id) and single uploads in flight
 * (their reservations). Run them in
 * the batch that deletes the user, before the cascade removes the rows they read.
 */
export function queueUserObjects(db: Db, userId: number, erasureId: string): BatchItem<"sqlite">[] {
  const files = filesTable;
  const uploads = uploadsTable;
  const held = storageReservationsTable;
  const deleted = deletedFilesTable;
  // Drizzle lists every column of the table for INSERT ... SELECT: id, erasureId, key, r2UploadId.
  const from = (select: SQL) => db.insert(queue).select(select);
  return [
    from(sql`SELECT NULL, ${erasureId}, ${files.key}, NULL FROM ${files} WHERE ${files.userId} = ${userId}`),
    from(
      sql`SELECT NULL, ${erasureId}, ${uploads.key}, ${uploads.r2UploadId} FROM ${uploads} WHERE ${uploads.userId} = ${userId}`,
    ),
    from(sql`SELECT NULL, ${erasureId}, ${held.key}, NULL FROM ${held} WHERE ${held.userId} = ${userId}
      AND NOT EXISTS (SELECT 1 FROM ${uploads} WHERE ${uploads.id} = ${held.id})`),
    from(
      sql`SELECT NULL, ${erasureId}, ${deleted.key}, NULL FROM ${deleted} WHERE ${deleted.userId} = ${userId}`,
    ),
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
