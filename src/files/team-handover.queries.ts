import { and, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { filesTable, pendingErasuresTable, storageReservationsTable } from "../db/files-schema";
import { orgMembersTable } from "../db/orgs-schema";
import { uploadsTable } from "../db/schema";
import { deletedFilesTable } from "../db/trash-schema";

/** The teams whose files (live or deleted) in `db` were uploaded by `userId`. */
export async function teamsWithFilesOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db.all<{ orgId: number }>(
    sql`SELECT ${filesTable.orgId} AS orgId FROM ${filesTable} WHERE ${filesTable.userId} = ${userId} AND ${filesTable.orgId} IS NOT NULL
      UNION SELECT ${deletedFilesTable.orgId} FROM ${deletedFilesTable} WHERE ${deletedFilesTable.userId} = ${userId} AND ${deletedFilesTable.orgId} IS NOT NULL`,
  );
  return rows.map((row) => row.orgId);
}

export interface TeamOwner {
  orgId: number;
  userId: number;
}

/** The owner of each of these teams (the directory's memberships). */
export function teamOwners(directory: Db, orgIds: readonly number[]): Promise<TeamOwner[]> {
  return directory
    .select({ orgId: orgMembersTable.orgId, userId: orgMembersTable.userId })
    .from(orgMembersTable)
    .where(and(inArray(orgMembersTable.orgId, [...orgIds]), eq(orgMembersTable.role, "owner")));
}

/**
 * Statements, for `db`, that leave a deleted account's team work with the teams: its files and deleted
 * files there become their team owner's record (the row says who may act on it, not who uploaded it), and
 * its unfinished uploads and single uploads in flight are queued for erasure under `erasureId` and removed
 * (upload parts by cascade). Its personal workspace and the teams it owned alone are erased already.
 */
export function handOverTeamWork(
  db: Db,
  userId: number,
  owners: readonly TeamOwner[],
  erasureId: string,
): [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] {
  const uploads = uploadsTable;
  const held = storageReservationsTable;
  const ownerOf = (orgId: SQL) =>
    sql`(SELECT json_extract(value, '$[1]') FROM json_each(${JSON.stringify(owners.map((o) => [o.orgId, o.userId]))}) WHERE json_extract(value, '$[0]') = ${orgId})`;
  // Drizzle lists every column of the table for INSERT ... SELECT: id, erasureId, key, r2UploadId.
  const queue = (select: SQL) => db.insert(pendingErasuresTable).select(select);
  const handOver = (table: typeof filesTable | typeof deletedFilesTable) =>
    db
      .update(table)
      .set({ userId: sql`coalesce(${ownerOf(sql`${table.orgId}`)}, ${table.userId})` })
      .where(and(eq(table.userId, userId), isNotNull(table.orgId)));
  return [
    handOver(filesTable),
    handOver(deletedFilesTable),
    queue(
      sql`SELECT NULL, ${erasureId}, ${uploads.key}, ${uploads.r2UploadId} FROM ${uploads} WHERE ${uploads.userId} = ${userId}`,
    ),
    queue(sql`SELECT NULL, ${erasureId}, ${held.key}, NULL FROM ${held} WHERE ${held.userId} = ${userId}
      AND NOT EXISTS (SELECT 1 FROM ${uploads} WHERE ${uploads.id} = ${held.id})`),
    db.delete(uploads).where(eq(uploads.userId, userId)),
    db.delete(held).where(eq(held.userId, userId)),
  ];
}
