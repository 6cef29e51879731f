import { eq, sql } from "drizzle-orm";
import type { Owner } from "../core/owner";
import type { Db } from "../db/client";
import { uploadPartsTable } from "../db/schema";
import { orgStorageUsageTable, storageReservationsTable, storageUsageTable } from "../db/files-schema";
import { ownedBySql, ownerOfRow } from "./file-owner";

export type NewReservation = typeof storageReservationsTable.$inferInsert;

const held = storageReservationsTable;

/** The one row the triggers keep of the owner's recorded files: `column` of it, or 0. */
function stored(owner: Owner, column: "bytes" | "files") {
  if (owner.kind === "user") {
    const usage = storageUsageTable;
    return sql`coalesce((SELECT ${usage[column]} FROM ${usage} WHERE ${usage.userId} = ${owner.userId}), 0)`;
  }
  const usage = orgStorageUsageTable;
  return sql`coalesce((SELECT ${usage[column]} FROM ${usage} WHERE ${usage.orgId} = ${owner.orgId}), 0)`;
}

const reserved = (owner: Owner, now: string) =>
  sql`coalesce((SELECT sum(${held.bytes}) FROM ${held} WHERE ${ownedBySql(held, owner)} AND ${held.expiresAt} > ${now}), 0)`;

/** Bytes an owner holds: recorded files (one row kept by triggers) plus unexpired reservations. */
export function usedBytes(owner: Owner, now: string) {
  return sql`(${stored(owner, "bytes")} + ${reserved(owner, now)})`;
}

export interface UsageRow {
  stored: number;
  files: number;
  reserved: number;
}

export function readUsage(db: Db, owner: Owner, now: string) {
  return db.all<UsageRow>(sql`SELECT ${stored(owner, "bytes")} AS stored, ${stored(owner, "files")} AS files,
    ${reserved(owner, now)} AS reserved`);
}

/**
 * Inserts the reservation only if its owner's bytes in use (the team's, for a team's upload) plus its
 * own stay within `limit`. One statement, so two uploads racing for the last room cannot both get it
 * (D1 runs writes one at a time).
 */
export async function insertReservationWithin(
  db: Db,
  reservation: NewReservation,
  limit: number,
  now: string,
): Promise<boolean> {
  const { id, userId, key, bytes, expiresAt, orgId = null } = reservation;
  const rows = await db.all(sql`INSERT INTO ${held} (id, userId, key, bytes, expiresAt, orgId)
    SELECT ${id}, ${userId}, ${key}, ${bytes}, ${expiresAt}, ${orgId}
    WHERE ${usedBytes(ownerOfRow({ userId, orgId }), now)} + ${bytes} <= ${limit} RETURNING id`);
  return rows.length > 0;
}

/**
 * Grows a resumable upload's reservation by what part `partNumber` adds (its length, less the size of
 * an earlier copy it replaces), only if that stays within `limit`; atomic like insertReservationWithin.
 */
export async function growReservationForPart(
  db: Db,
  upload: { id: string; userId: number; orgId: number | null },
  partNumber: number,
  length: number,
  limit: number,
  now: string,
): Promise<boolean> {
  const parts = uploadPartsTable;
  const added = sql`max(0, ${length} - coalesce((SELECT ${parts.size} FROM ${parts}
    WHERE ${parts.uploadId} = ${upload.id} AND ${parts.partNumber} = ${partNumber}), 0))`;
  const rows = await db.all(sql`UPDATE ${held} SET bytes = bytes + ${added}
    WHERE id = ${upload.id} AND ${usedBytes(ownerOfRow(upload), now)} + ${added} <= ${limit} RETURNING id`);
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
