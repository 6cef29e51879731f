import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { uploadPartsTable } from "../db/schema";
import { storageReservationsTable, storageUsageTable } from "../db/files-schema";

export type NewReservation = typeof storageReservationsTable.$inferInsert;

const usage = storageUsageTable;
const held = storageReservationsTable;

/** Bytes a user holds: recorded files (one row kept by triggers) plus unexpired reservations. */
export function usedBytes(userId: number, now: string) {
  return sql`(coalesce((SELECT ${usage.bytes} FROM ${usage} WHERE ${usage.userId} = ${userId}), 0)
    + coalesce((SELECT sum(${held.bytes}) FROM ${held} WHERE ${held.userId} = ${userId} AND ${held.expiresAt} > ${now}), 0))`;
}

export interface UsageRow {
  stored: number;
  files: number;
  reserved: number;
}

export function readUsage(db: Db, userId: number, now: string) {
  return db.all<UsageRow>(sql`SELECT
    coalesce((SELECT ${usage.bytes} FROM ${usage} WHERE ${usage.userId} = ${userId}), 0) AS stored,
    coalesce((SELECT ${usage.files} FROM ${usage} WHERE ${usage.userId} = ${userId}), 0) AS files,
    coalesce((SELECT sum(${held.bytes}) FROM ${held} WHERE ${held.userId} = ${userId} AND ${held.expiresAt} > ${now}), 0) AS reserved`);
}

/**
 * Inserts the reservation only if the user's bytes in use plus its own stay within `limit`. One
 * statement, so two uploads racing for the last room cannot both get it (D1 runs writes one at a time).
 */
export async function insertReservationWithin(
  db: Db,
  reservation: NewReservation,
  limit: number,
  now: string,
): Promise<boolean> {
  const { id, userId, key, bytes, expiresAt } = reservation;
  const rows = await db.all(sql`INSERT INTO ${held} (id, userId, key, bytes, expiresAt)
    SELECT ${id}, ${userId}, ${key}, ${bytes}, ${expiresAt}
    WHERE ${usedBytes(userId, now)} + ${bytes} <= ${limit} RETURNING id`);
  return rows.length > 0;
}

/**
 * Grows a resumable upload's reservation by what part `partNumber` adds (its length, less the size of
 * an earlier copy it replaces), only if that stays within `limit`; atomic like insertReservationWithin.
 */
export async function growReservationForPart(
  db: Db,
  upload: { id: string; userId: number },
  partNumber: number,
  length: number,
  limit: number,
  now: string,
): Promise<boolean> {
  const parts = uploadPartsTable;
  const added = sql`max(0, ${length} - coalesce((SELECT ${parts.size} FROM ${parts}
    WHERE ${parts.uploadId} = ${upload.id} AND ${parts.partNumber} = ${partNumber}), 0))`;
  const rows = await db.all(sql`UPDATE ${held} SET bytes = bytes + ${added}
    WHERE id = ${upload.id} AND ${usedBytes(upload.userId, now)} + ${added} <= ${limit} RETURNING id`);
  return rows.length > 0;
}

export async function deleteReservation(db: Db, id: string): Promise<void> {
  await db.delete(held).where(eq(held.id, id));
}

/** Removes up to `limit` expired reservations and returns them: whoever removes one owns its cleanup. */
export function takeExpiredReservations(db: Db, now: string, limit: number) {
  return db.all<{ id: string; key: string }>(sql`DELETE FROM ${held} WHERE id IN
    (SELECT id FROM ${held} WHERE ${held.expiresAt} <= ${now} LIMIT ${limit}) RETURNING id, key`);
}
