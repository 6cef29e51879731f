import { and, count, desc, eq, gt, isNull, or, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { fileLinksTable, filesTable } from "../db/files-schema";

export type LinkRow = typeof fileLinksTable.$inferSelect;
export type NewLink = typeof fileLinksTable.$inferInsert;

const links = fileLinksTable;

/** Inserts the link, with `alongside` (a team's audit entry) in its batch. */
export async function insertLink(
  db: Db,
  link: NewLink,
  alongside: BatchItem<"sqlite">[] = [],
): Promise<LinkRow> {
  const [[row]] = await db.batch([db.insert(links).values(link).returning(), ...alongside]);
  return row!;
}

/** A link that still opens its file at `now`: not revoked, not expired, not used up. */
const live = (now: string) =>
  and(
    isNull(links.revokedAt),
    gt(links.expiresAt, now),
    or(isNull(links.maxDownloads), lt(links.downloads, links.maxDownloads)),
  );

export async function countLiveLinks(db: Db, fileId: number, now: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(links)
    .where(and(eq(links.fileId, fileId), live(now)));
  return row?.n ?? 0;
}

export function listLinksForFile(db: Db, fileId: number, limit: number): Promise<LinkRow[]> {
  return db
    .select()
    .from(links)
    .where(eq(links.fileId, fileId))
    .orderBy(desc(links.createdAt), desc(links.id))
    .limit(limit);
}

/**
 * Revokes a link of the file (a second revoke keeps the first time), with `alongside` (a team's audit
 * entry) right after it in one batch; null when the file has no such link.
 */
export async function revokeLink(
  db: Db,
  id: string,
  fileId: number,
  now: string,
  alongside: BatchItem<"sqlite">[] = [],
): Promise<LinkRow | null> {
  const [[row]] = await db.batch([
    db
      .update(links)
      .set({ revokedAt: sql`coalesce(${links.revokedAt}, ${now})` })
      .where(and(eq(links.id, id), eq(links.fileId, fileId), isNull(links.revokedAt)))
      .returning(),
    ...alongside,
  ]);
  return row ?? (await findLinkOfFile(db, id, fileId));
}

async function findLinkOfFile(db: Db, id: string, fileId: number): Promise<LinkRow | null> {
  const [row] = await db
    .select()
    .from(links)
    .where(and(eq(links.id, id), eq(links.fileId, fileId)));
  return row ?? null;
}

function linkWithKey(db: Db, id: string) {
  return db
    .select({ link: links, key: filesTable.key })
    .from(links)
    .innerJoin(filesTable, eq(filesTable.id, links.fileId))
    .where(eq(links.id, id))
    .limit(1);
}

export async function findLink(db: Db, id: string) {
  const [row] = await linkWithKey(db, id);
  return row ?? null;
}

/**
 * Counts one download when the link is live, in one statement: parallel downloads of a link with
 * `maxDownloads` n get at most n through. Returns the link as it stands afterwards and whether this
 * download was counted.
 */
export async function countDownload(db: Db, id: string, now: string) {
  const [counted, [row]] = await db.batch([
    db
      .update(links)
      .set({ downloads: sql`${links.downloads} + 1` })
      .where(and(eq(links.id, id), live(now)))
      .returning({ id: links.id }),
    linkWithKey(db, id),
  ]);
  return row ? { ...row, counted: counted.length > 0 } : null;
}
