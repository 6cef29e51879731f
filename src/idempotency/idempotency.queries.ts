import { and, eq, lt, or, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../db/client";
import { idempotencyKeysTable } from "../db/sync-schema";

export type IdempotencyRow = typeof idempotencyKeysTable.$inferSelect;

/** One key of one user on one route. */
export interface IdempotencyId {
  userId: number;
  route: string;
  key: string;
}

/** When a row no longer holds its key: an in-flight claim older than `inFlightBefore`, any row older than `expiredBefore`. */
export interface ClaimBounds {
  inFlightBefore: string;
  expiredBefore: string;
}

const t = idempotencyKeysTable;
const byId = (id: IdempotencyId) => and(eq(t.userId, id.userId), eq(t.route, id.route), eq(t.key, id.key));

/** A row that no longer holds its key as of `bounds` (values, or placeholders of a prebuilt statement). */
export function keyReleased(bounds: {
  inFlightBefore: string | SQLWrapper;
  expiredBefore: string | SQLWrapper;
}) {
  return or(
    and(eq(t.state, "in_flight"), lt(t.createdAt, bounds.inFlightBefore)),
    lt(t.createdAt, bounds.expiredBefore),
  );
}

/**
 * Takes the key for a request about to run, as of `claimedAt`: a new row, or one whose claim was
 * abandoned (a request that died in flight) or whose answer expired. One conditional statement, so
 * of two requests racing for a key exactly one gets it. True when this request holds it.
 */
export async function claimKey(
  db: Db,
  id: IdempotencyId,
  fingerprint: string | null,
  claimedAt: string,
  bounds: ClaimBounds,
): Promise<boolean> {
  const row = { ...id, fingerprint, state: "in_flight" as const, createdAt: claimedAt };
  const claimed = await db
    .insert(t)
    .values(row)
    .onConflictDoUpdate({
      target: [t.userId, t.route, t.key],
      set: {
        fingerprint,
        state: "in_flight",
        status: null,
        headers: null,
        body: null,
        result: null,
        createdAt: claimedAt,
      },
      setWhere: keyReleased(bounds),
    })
    .returning({ createdAt: t.createdAt });
  return claimed.length > 0;
}

export async function findKey(db: Db, id: IdempotencyId): Promise<IdempotencyRow | null> {
  const [row] = await db.select().from(t).where(byId(id)).limit(1);
  return row ?? null;
}

/** A 2xx answer as kept: its headers that matter (a JSON object) and its body. */
export interface KeptAnswer {
  fingerprint: string;
  status: number;
  headers: string;
  body: string;
}

/** The claim made at `claimedAt` (and not taken over since) becomes the kept answer. */
export async function keepAnswer(
  db: Db,
  id: IdempotencyId,
  claimedAt: string,
  answer: KeptAnswer,
): Promise<void> {
  await db
    .update(t)
    .set({ ...answer, state: "done" })
    .where(and(byId(id), eq(t.state, "in_flight"), eq(t.createdAt, claimedAt)));
}

/** Frees the key after an answer that is not kept (any non-2xx): the client may retry with it. */
export async function releaseKey(db: Db, id: IdempotencyId, claimedAt: string): Promise<void> {
  await db.delete(t).where(and(byId(id), eq(t.state, "in_flight"), eq(t.createdAt, claimedAt)));
}

/** The hourly cron's share: rows older than `before` (24 h) go; a lookup already ignores them. */
export async function purgeKeysBefore(db: Db, before: string): Promise<number> {
  const result = await db.delete(t).where(lt(t.createdAt, before)).run();
  return result.meta.changes ?? 0;
}
