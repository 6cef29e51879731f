import type { BatchItem } from "drizzle-orm/batch";
import { and, count, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { apiKeysTable, type ApiKeyScope } from "../../db/credentials-schema";
import { NOW } from "../../db/schema";

export type ApiKeyRow = typeof apiKeysTable.$inferSelect;

// Everything but the hash: what lists and answers show.
const VIEW = {
  id: apiKeysTable.id,
  name: apiKeysTable.name,
  scopes: apiKeysTable.scopes,
  lastFour: apiKeysTable.lastFour,
  createdAt: apiKeysTable.createdAt,
  lastUsedAt: apiKeysTable.lastUsedAt,
  expiresAt: apiKeysTable.expiresAt,
  revokedAt: apiKeysTable.revokedAt,
};
export type ApiKeyView = Omit<ApiKeyRow, "userId" | "keyHash">;

export interface NewApiKey {
  userId: number;
  name: string;
  scopes: ApiKeyScope[];
  expiresAt: string | null;
  keyHash: string;
  lastFour: string;
}

/** Keys that still work (or might: expiry is checked at use) count against the per-user cap. */
const usable = (userId: number, nowIso: string) =>
  and(
    eq(apiKeysTable.userId, userId),
    isNull(apiKeysTable.revokedAt),
    or(isNull(apiKeysTable.expiresAt), sql`${apiKeysTable.expiresAt} > ${nowIso}`),
  );

export async function countUsableKeys(db: Db, userId: number, nowIso: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(apiKeysTable).where(usable(userId, nowIso));
  return row?.n ?? 0;
}

/** The key, with `audit` (an entry of the account's trail) in the same batch. */
export async function insertApiKey(db: Db, key: NewApiKey, audit: BatchItem<"sqlite">): Promise<ApiKeyView> {
  const [rows] = await db.batch([db.insert(apiKeysTable).values(key).returning(VIEW), audit]);
  return rows[0] as ApiKeyView;
}

/** A user's keys, newest first, revoked and expired ones included. */
export async function listApiKeys(db: Db, userId: number, offset: number, limit: number) {
  const mine = eq(apiKeysTable.userId, userId);
  const [items, [total]] = await db.batch([
    db.select(VIEW).from(apiKeysTable).where(mine).orderBy(desc(apiKeysTable.id)).limit(limit).offset(offset),
    db.select({ value: count() }).from(apiKeysTable).where(mine),
  ]);
  return { items, total: total?.value ?? 0 };
}

/** Revokes one of the user's keys (a second revoke keeps the first time); null when not theirs. */
export async function revokeApiKey(
  db: Db,
  id: number,
  userId: number,
  audit: BatchItem<"sqlite">,
): Promise<ApiKeyView | null> {
  const [rows] = await db.batch([
    db
      .update(apiKeysTable)
      .set({ revokedAt: sql`coalesce(${apiKeysTable.revokedAt}, ${NOW})` })
      .where(and(eq(apiKeysTable.id, id), eq(apiKeysTable.userId, userId)))
      .returning(VIEW),
    audit,
  ]);
  return rows[0] ?? null;
}

/** Records a use unless one was recorded after `staleBefore` (at most one write a minute per key). */
export async function touchApiKey(db: Db, id: number, staleBefore: string): Promise<void> {
  await db
    .update(apiKeysTable)
    .set({ lastUsedAt: NOW })
    .where(
      and(
        eq(apiKeysTable.id, id),
        or(isNull(apiKeysTable.lastUsedAt), lt(apiKeysTable.lastUsedAt, staleBefore)),
      ),
    );
}
