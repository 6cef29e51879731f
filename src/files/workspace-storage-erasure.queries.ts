import { count, eq, sql, type SQL } from "drizzle-orm";
import type { Owner } from "../core/owner";
import type { Db } from "../db/client";
import {
  filesTable,
  orgStorageUsageTable,
  pendingErasuresTable,
  storageReservationsTable,
  storageUsageTable,
} from "../db/files-schema";
import { uploadsTable } from "../db/schema";
import { deletedFilesTable } from "../db/trash-schema";
import { ownedBy, ownedBySql } from "./file-owner";

/**
 * Erases `owner`'s storage in `db`, its data database, in one batch (issue 42: no cascade from the directory
 * reaches it): every object key queued for erasure under `erasureId` (files, deleted files, unfinished
 * uploads with their R2 upload id, single uploads in flight), then the rows (share links and upload parts
 * by cascade, quota rows after the deletes their triggers follow). Runs again harmlessly: a second run
 * finds nothing left. Answers how many files (live or deleted) it erased. A user's chats go apart (src/chats/chat-erasure.queries.ts).
 */
export async function eraseWorkspaceStorage(
  db: Db,
  owner: Owner,
  erasureId: string,
): Promise<{ files: number }> {
  const files = filesTable;
  const uploads = uploadsTable;
  const held = storageReservationsTable;
  const deleted = deletedFilesTable;
  // Drizzle lists every column of the table for INSERT ... SELECT: id, erasureId, key, r2UploadId.
  const queue = (select: SQL) => db.insert(pendingErasuresTable).select(select);
  const [[live], [binned]] = await db.batch([
    db.select({ n: count() }).from(files).where(ownedBy(files, owner)),
    db.select({ n: count() }).from(deleted).where(ownedBy(deleted, owner)),
    queue(sql`SELECT NULL, ${erasureId}, ${files.key}, NULL FROM ${files} WHERE ${ownedBySql(files, owner)}`),
    queue(
      sql`SELECT NULL, ${erasureId}, ${uploads.key}, ${uploads.r2UploadId} FROM ${uploads} WHERE ${ownedBySql(uploads, owner)}`,
    ),
    queue(sql`SELECT NULL, ${erasureId}, ${held.key}, NULL FROM ${held} WHERE ${ownedBySql(held, owner)}
      AND NOT EXISTS (SELECT 1 FROM ${uploads} WHERE ${uploads.id} = ${held.id})`),
    queue(
      sql`SELECT NULL, ${erasureId}, ${deleted.key}, NULL FROM ${deleted} WHERE ${ownedBySql(deleted, owner)}`,
    ),
    db.delete(files).where(ownedBy(files, owner)),
    db.delete(deleted).where(ownedBy(deleted, owner)),
    db.delete(held).where(ownedBy(held, owner)),
    db.delete(uploads).where(ownedBy(uploads, owner)),
    owner.kind === "user"
      ? db.delete(storageUsageTable).where(eq(storageUsageTable.userId, owner.userId))
      : db.delete(orgStorageUsageTable).where(eq(orgStorageUsageTable.orgId, owner.orgId)),
  ]);
  return { files: (live?.n ?? 0) + (binned?.n ?? 0) };
}
