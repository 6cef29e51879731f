import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { userOwner, type Owner } from "../core/owner";
import type { Db } from "../db/client";
import { NOW, todoAttachmentsTable, todosTable } from "../db/schema";
import { likePattern } from "../db/like-pattern";
import { filesTable, storageReservationsTable } from "../db/files-schema";
import { ownedBy, ownerOfRow } from "./file-owner";
import { keepDeletedFile } from "./file-trash.queries";

export type FileRow = typeof filesTable.$inferSelect;
export type RecordedFile = Pick<FileRow, "originalName" | "size" | "contentType" | "etag" | "visibility">;

/**
 * Records a stored object under its reservation's key and owner (its user, and its team if any), and
 * drops the reservation, in one batch with `alongside`, which runs right after the insert (an audit
 * entry there may ask `changes()`). Nothing is recorded when the reservation is gone (expired and
 * swept, or its user or team deleted): the row then comes back null.
 */
export async function recordFromReservation(
  db: Db,
  reservationId: string,
  file: RecordedFile,
  alongside: BatchItem<"sqlite">[] = [],
): Promise<FileRow | null> {
  const r = storageReservationsTable;
  // Drizzle lists every column of the table for INSERT ... SELECT, in declaration order.
  const insert = db
    .insert(filesTable)
    .select(
      sql`SELECT NULL, ${r.key}, ${r.userId}, ${file.originalName}, ${file.size}, ${file.contentType},
        ${file.etag}, ${file.visibility}, ${NOW}, ${r.orgId} FROM ${r} WHERE ${r.id} = ${reservationId}`,
    )
    .returning();
  const [rows] = await db.batch([insert, ...alongside, db.delete(r).where(eq(r.id, reservationId))]);
  return rows[0] ?? null;
}

/**
 * The file if it belongs to `owner` (ownership in the WHERE clause: anyone else's is not found; a
 * user's own files never include a team's they uploaded).
 */
export async function findFileOf(db: Db, key: string, owner: Owner): Promise<FileRow | null> {
  const [row] = await db
    .select()
    .from(filesTable)
    .where(and(eq(filesTable.key, key), ownedBy(filesTable, owner)))
    .limit(1);
  return row ?? null;
}

/** The user's own file under `key` (not a team's). */
export const findFileForUser = (db: Db, key: string, userId: number) =>
  findFileOf(db, key, userOwner(userId));

/** The file under `key`, whoever owns it: for a route that then decides whether the caller may have it. */
export async function findFileByKey(db: Db, key: string): Promise<FileRow | null> {
  const [row] = await db.select().from(filesTable).where(eq(filesTable.key, key)).limit(1);
  return row ?? null;
}

/**
 * One page of the owner's files, newest first: ids below `beforeId`, names containing `nameContains`
 * when given; one extra row tells whether more follow.
 */
export const listFilesOf = (
  db: Db,
  owner: Owner,
  beforeId: number | undefined,
  limit: number,
  nameContains?: string,
) => listFilesWhere(db, ownedBy(filesTable, owner), beforeId, limit, nameContains);

/** listFilesOf() for the files `scope` selects (several owners' at once). */
export function listFilesWhere(
  db: Db,
  scope: SQL,
  beforeId: number | undefined,
  limit: number,
  nameContains?: string,
) {
  return db
    .select()
    .from(filesTable)
    .where(
      and(
        scope,
        beforeId === undefined ? undefined : lt(filesTable.id, beforeId),
        nameContains === undefined
          ? undefined
          : sql`${filesTable.originalName} LIKE ${likePattern(nameContains)} ESCAPE '\\'`,
      ),
    )
    .orderBy(desc(filesTable.id))
    .limit(limit + 1);
}

/** The todos (of any user: a key is a capability) that have this key as an attachment. */
export function todosAttaching(db: Db, key: string) {
  return db
    .selectDistinct({ id: todosTable.id, userId: todosTable.userId })
    .from(todoAttachmentsTable)
    .innerJoin(todosTable, eq(todosTable.id, todoAttachmentsTable.todoId))
    .where(eq(todoAttachmentsTable.fileKey, key))
    .orderBy(todosTable.id);
}

/** A todo whose attachments a delete with `detach` changed: its new version, for the owner's live feed. */
export type DetachedTodo = { id: number; userId: number | null; orgId: number | null; version: number };

/**
 * Forgets the file (its share links go by cascade, its usage by trigger) after keeping its record and
 * links for a restore and, with `detach`, drops every attachment row naming its key, in one batch;
 * `afterForget` runs right after the delete (an audit entry there may ask `changes()`).
 * Losing an attachment is a write of the todo: its version rises (the change log follows by trigger).
 * The todos so changed and when the file was deleted, or null when the file was gone meanwhile.
 */
export async function deleteFileRecord(
  db: Db,
  file: FileRow,
  detach: boolean,
  afterForget: BatchItem<"sqlite">[] = [],
): Promise<{ todos: DetachedTodo[]; deletedAt: string } | null> {
  const keep = keepDeletedFile(db, file);
  const forget = db
    .delete(filesTable)
    .where(and(eq(filesTable.id, file.id), ownedBy(filesTable, ownerOfRow(file))))
    .returning({ id: filesTable.id });
  if (!detach) {
    const [[kept], gone] = await db.batch([keep, forget, ...afterForget]);
    return kept && gone.length > 0 ? { todos: [], deletedAt: kept.deletedAt } : null;
  }
  const [touched, , [kept], gone] = await db.batch([
    ...detachStatements(db, file.key),
    keep,
    forget,
    ...afterForget,
  ]);
  return kept && gone.length > 0 ? { todos: touched, deletedAt: kept.deletedAt } : null;
}

/** The attachments naming `key` dropped, each todo's version raised (its change log follows by trigger). */
function detachStatements(db: Db, key: string) {
  const attachments = todoAttachmentsTable;
  const attaching = db
    .select({ id: attachments.todoId })
    .from(attachments)
    .where(eq(attachments.fileKey, key));
  return [
    db
      .update(todosTable)
      .set({ version: sql`${todosTable.version} + 1`, updatedAt: NOW })
      .where(inArray(todosTable.id, attaching))
      .returning({
        id: todosTable.id,
        userId: todosTable.userId,
        orgId: todosTable.orgId,
        version: todosTable.version,
      }),
    db.delete(attachments).where(eq(attachments.fileKey, key)),
  ] as const;
}

/** detachStatements() on their own, for the data databases other than the file's: the todos changed. */
export async function detachKey(db: Db, key: string): Promise<DetachedTodo[]> {
  const [touched] = await db.batch(detachStatements(db, key));
  return touched;
}

/** Which of these keys (at most 100: D1's bound parameters) have a file record. */
export async function recordedKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.select({ key: filesTable.key }).from(filesTable).where(inArray(filesTable.key, keys));
  return new Set(rows.map((row) => row.key));
}

/** The files among these keys, whoever owns them (at most 100: D1's bound parameters): the caller decides. */
export function filesAmong(db: Db, keys: string[]): Promise<FileRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db.select().from(filesTable).where(inArray(filesTable.key, keys));
}
