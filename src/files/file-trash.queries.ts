import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Owner } from "../core/owner";
import type { Db } from "../db/client";
import { fileLinksTable, filesTable } from "../db/files-schema";
import { jsonObjectOf } from "../db/json-rows";
import { NOW } from "../db/schema";
import { deletedFilesTable } from "../db/trash-schema";
import type { BatchItem } from "drizzle-orm/batch";
import { ownedBy, ownerOfRow } from "./file-owner";
import { usedBytes } from "./quota.queries";

// A deleted file kept for its restore: its record and share links in D1, its object in R2 under its
// own key (no copy), refused to every download until it is restored or purged.

const trash = deletedFilesTable;
type FileRow = typeof filesTable.$inferSelect;
const field = (name: string) => sql`json_extract(value, ${`$.${name}`})`;
export type DeletedFileRow = typeof trash.$inferSelect;

/**
 * The statement that keeps the file's record and links before the same batch deletes the record
 * (links by cascade). Returns when it was deleted.
 */
export function keepDeletedFile(db: Db, file: Pick<FileRow, "id" | "userId">) {
  const f = filesTable;
  const l = fileLinksTable;
  // json(): a subquery's JSON would otherwise be embedded as a string.
  const links = sql`json((SELECT json_group_array(${jsonObjectOf(l)}) FROM (SELECT * FROM ${l} WHERE ${l.fileId} = ${f.id} ORDER BY ${l.createdAt}) AS ${l}))`;
  // Drizzle lists every column of the table for INSERT ... SELECT, in declaration order.
  return db
    .insert(trash)
    .select(
      sql`SELECT ${f.id}, ${f.key}, ${f.userId}, ${f.originalName}, ${f.size}, ${f.contentType}, ${f.etag},
        ${f.visibility}, ${links}, ${f.createdAt}, ${NOW}, ${f.orgId}
        FROM ${f} WHERE ${f.id} = ${file.id} AND ${f.userId} = ${file.userId}`,
    )
    .returning({ deletedAt: trash.deletedAt });
}

/** Which of these keys (at most 100: D1's bound parameters) are deleted files'. */
export async function deletedKeysAmong(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.select({ key: trash.key }).from(trash).where(inArray(trash.key, keys));
  return new Set(rows.map((row) => row.key));
}

/** The owner's deleted file under `key` (a user's own never include a team's). */
export async function findDeletedFile(db: Db, key: string, owner: Owner): Promise<DeletedFileRow | null> {
  const [row] = await db
    .select()
    .from(trash)
    .where(and(eq(trash.key, key), ownedBy(trash, owner)))
    .limit(1);
  return row ?? null;
}

/** The deleted file under `key`, whoever owns it: for a route that then decides whether the caller may. */
export async function findDeletedFileByKey(db: Db, key: string): Promise<DeletedFileRow | null> {
  const [row] = await db.select().from(trash).where(eq(trash.key, key)).limit(1);
  return row ?? null;
}

/**
 * Puts a deleted file's record back under its id, with its share links, and forgets it, in one batch:
 * only while it was deleted after `since` and its size fits its owner's quota (`limit`, checked in the
 * insert itself, as an upload's reservation is); `afterInsert` runs right after the insert (an audit
 * entry there may ask `changes()`). The record, or null when nothing was restored.
 */
export async function restoreDeletedFile(
  db: Db,
  file: DeletedFileRow,
  since: string,
  limit: number,
  now: string,
  afterInsert: BatchItem<"sqlite">[] = [],
): Promise<FileRow | null> {
  const restorable = and(eq(trash.id, file.id), eq(trash.userId, file.userId), gt(trash.deletedAt, since));
  const insert = db
    .insert(filesTable)
    .select(
      sql`SELECT ${trash.id}, ${trash.key}, ${trash.userId}, ${trash.originalName}, ${trash.size},
        ${trash.contentType}, ${trash.etag}, ${trash.visibility}, ${trash.createdAt}, ${trash.orgId} FROM ${trash}
        WHERE ${restorable} AND ${usedBytes(ownerOfRow(file), now)} + ${trash.size} <= ${limit}`,
    )
    .returning();
  const l = fileLinksTable;
  // Only in the batch that restored the record: it exists and the trash row is still there.
  const restored = sql`EXISTS (SELECT 1 FROM ${filesTable} WHERE ${filesTable.id} = ${file.id})
    AND EXISTS (SELECT 1 FROM ${trash} WHERE ${restorable})`;
  const links = db.insert(l).select(
    sql`SELECT ${field("id")}, ${field("fileId")}, ${field("expiresAt")}, ${field("maxDownloads")},
        ${field("downloads")}, ${field("revokedAt")}, ${field("createdAt")}
        FROM json_each(${file.links}) WHERE ${restored}`,
  );
  const [rows] = await db.batch([
    insert,
    ...afterInsert,
    links,
    db.delete(trash).where(and(restorable, restored)),
  ]);
  return rows[0] ?? null;
}

/** Deleted files past the restore window (deleted at or before `cutoff`), oldest first. */
export function expiredDeletedFiles(db: Db, cutoff: string, limit: number) {
  return db
    .select({ id: trash.id, key: trash.key })
    .from(trash)
    .where(lte(trash.deletedAt, cutoff))
    .orderBy(trash.deletedAt)
    .limit(limit);
}

/** Forgets deleted files whose objects are erased (at most 100 ids: D1's bound parameters). */
export async function forgetDeletedFiles(db: Db, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.delete(trash).where(inArray(trash.id, ids));
}
