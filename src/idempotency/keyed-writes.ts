import { and, eq, not, sql, type Placeholder, type SQL } from "drizzle-orm";
import { Failure } from "../core/failures";
import { prebuilt, statementBuilder } from "../db/prebuilt";
import { idempotencyKeysTable as t } from "../db/sync-schema";
import { keyReleased, type ClaimBounds, type IdempotencyId } from "./idempotency.queries";

// A write that takes its Idempotency-Key in its own D1 batch: the key is checked, the write done and its
// result kept under the key in one transaction, so a retry finds either all of it or none, never a
// claim in flight, and the write costs no round trip of its own for the key.

/** The key a write takes, as the Idempotency-Key middleware (src/http/idempotency.ts) hands it over. */
export interface KeyedWrite extends IdempotencyId, ClaimBounds {
  /** SHA-256 of the request (method, path and body): the same key with another request is refused. */
  fingerprint: string;
  claimedAt: string;
}

/** The key was held (an answer kept, or a claim in flight) when the batch ran: nothing was written. */
export class KeyTakenError extends Failure {
  readonly kind = "conflict";

  constructor() {
    super("A request with this Idempotency-Key is still in progress: wait for its answer, then retry");
    this.name = "KeyTakenError";
  }
}

// The placeholders of the key's statements (keyValues binds them); the write's own are its business.
const p = {
  userId: sql.placeholder("keyUserId"),
  route: sql.placeholder("keyRoute"),
  key: sql.placeholder("key"),
  fingerprint: sql.placeholder("keyFingerprint"),
  claimedAt: sql.placeholder("keyClaimedAt"),
  inFlightBefore: sql.placeholder("keyInFlightBefore"),
  expiredBefore: sql.placeholder("keyExpiredBefore"),
};

/**
 * `value` while no row holds the key, else NULL. Given to a NOT NULL column of the write's first
 * statement, a held key fails that statement and with it the whole batch (D1 runs a batch as one
 * transaction): the caller answers KeyTakenError for that column's NOT NULL failure.
 */
export function unlessKeyHeld(value: SQL | Placeholder): SQL {
  const holder = and(eq(t.userId, p.userId), eq(t.route, p.route), eq(t.key, p.key), not(keyReleased(p)!));
  return sql`CASE WHEN EXISTS (SELECT 1 FROM ${t} WHERE ${holder}) THEN NULL ELSE ${value} END`;
}

/**
 * The batch's last statement: the key, done, with `result` (SQL over the rows the write made, as
 * JSON), from which the route answers a replay as it answered the write (no status or body is kept).
 * It replaces a row whose hold ended (unlessKeyHeld let the batch through).
 */
export function keepResult(result: SQL) {
  const row = {
    userId: p.userId,
    route: p.route,
    key: p.key,
    fingerprint: p.fingerprint,
    state: "done" as const,
    result,
    createdAt: p.claimedAt,
  };
  return prebuilt(
    statementBuilder
      .insert(t)
      .values(row)
      .onConflictDoUpdate({
        target: [t.userId, t.route, t.key],
        set: {
          fingerprint: sql`excluded.fingerprint`,
          state: "done",
          status: null,
          headers: null,
          body: null,
          result: sql`excluded.result`,
          createdAt: sql`excluded.createdAt`,
        },
      }),
  );
}

/** The values of the key's placeholders. */
export function keyValues(key: KeyedWrite): Record<string, unknown> {
  return {
    keyUserId: key.userId,
    keyRoute: key.route,
    key: key.key,
    keyFingerprint: key.fingerprint,
    keyClaimedAt: key.claimedAt,
    keyInFlightBefore: key.inFlightBefore,
    keyExpiredBefore: key.expiredBefore,
  };
}
