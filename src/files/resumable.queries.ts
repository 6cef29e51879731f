import { and, asc, count, eq, gt, isNull, lt, lte, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { uploadPartsTable, uploadsTable } from "../db/schema";
import { storageReservationsTable } from "../db/files-schema";

export type UploadRow = typeof uploadsTable.$inferSelect;
export type NewUpload = typeof uploadsTable.$inferInsert;
export type UploadPartRow = typeof uploadPartsTable.$inferSelect;

export async function insertUpload(db: Db, upload: NewUpload): Promise<void> {
  await db.insert(uploadsTable).values(upload);
}

/** The upload if it belongs to the user (ownership in the WHERE clause: a foreign id is not found). */
export async function findUploadForUser(db: Db, id: string, userId: number): Promise<UploadRow | null> {
  const [row] = await db
    .select()
    .from(uploadsTable)
    .where(and(eq(uploadsTable.id, id), eq(uploadsTable.userId, userId)));
  return row ?? null;
}

/**
 * Claims the upload for the one request completing it, as of `claimedAt`: unclaimed, or claimed before
 * `lapsedBefore` (a request that died). One conditional statement, so of two racing completions
 * exactly one gets it. True when this request holds it.
 */
export async function claimCompletion(
  db: Db,
  id: string,
  claimedAt: string,
  lapsedBefore: string,
): Promise<boolean> {
  const claimed = await db
    .update(uploadsTable)
    .set({ completingAt: claimedAt })
    .where(
      and(
        eq(uploadsTable.id, id),
        or(isNull(uploadsTable.completingAt), lt(uploadsTable.completingAt, lapsedBefore)),
      ),
    )
    .returning({ id: uploadsTable.id });
  return claimed.length > 0;
}

/** Gives up the claim made at `claimedAt` (a completion that failed): the upload may be completed again. */
export async function releaseCompletion(db: Db, id: string, claimedAt: string): Promise<void> {
  await db
    .update(uploadsTable)
    .set({ completingAt: null })
    .where(and(eq(uploadsTable.id, id), eq(uploadsTable.completingAt, claimedAt)));
}

export async function countOpenUploadsForUser(db: Db, userId: number, now: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(uploadsTable)
    .where(and(eq(uploadsTable.userId, userId), gt(uploadsTable.expiresAt, now)));
  return row?.n ?? 0;
}

/** A retried part replaces the earlier one, as it does in R2. */
export async function upsertPart(db: Db, part: UploadPartRow): Promise<void> {
  await db
    .insert(uploadPartsTable)
    .values(part)
    .onConflictDoUpdate({
      target: [uploadPartsTable.uploadId, uploadPartsTable.partNumber],
      set: { etag: part.etag, size: part.size },
    });
}

export async function listParts(db: Db, uploadId: string): Promise<UploadPartRow[]> {
  return db
    .select()
    .from(uploadPartsTable)
    .where(eq(uploadPartsTable.uploadId, uploadId))
    .orderBy(asc(uploadPartsTable.partNumber));
}

/** Removes the upload, its parts (by cascade) and the quota reservation it held. */
export async function deleteUpload(db: Db, id: string): Promise<void> {
  await db.batch([
    deleteUploadRow(db, id),
    db.delete(storageReservationsTable).where(eq(storageReservationsTable.id, id)),
  ]);
}

/** The upload's row alone (its parts go by cascade), for a batch that handles the reservation itself. */
export function deleteUploadRow(db: Db, id: string) {
  return db.delete(uploadsTable).where(eq(uploadsTable.id, id));
}

export async function listExpiredUploads(db: Db, now: string, limit: number): Promise<UploadRow[]> {
  return db.select().from(uploadsTable).where(lte(uploadsTable.expiresAt, now)).limit(limit);
}
