import { jwtSecret } from "../auth/tokens";
import type { Db } from "../db/client";
import * as queries from "./idempotency.queries";
import { seal, unseal } from "./sealed-answers";

/** How long an answer is kept for retries with its Idempotency-Key. */
export const IDEMPOTENCY_TTL_HOURS = 24;

/**
 * The store the Idempotency-Key middleware (src/http/idempotency.ts) keeps its keys in: D1, with each
 * kept answer's body sealed (src/idempotency/sealed-answers.ts).
 */
export function idempotencyStore(env: Env) {
  const secret = jwtSecret(env);
  return {
    claim: queries.claimKey,
    async find(db: Db, id: queries.IdempotencyId) {
      const row = await queries.findKey(db, id);
      return row?.body ? { ...row, body: await unseal(secret, row.body) } : row;
    },
    async keep(db: Db, id: queries.IdempotencyId, claimedAt: string, answer: queries.KeptAnswer) {
      await queries.keepAnswer(db, id, claimedAt, { ...answer, body: await seal(secret, answer.body) });
    },
    release: queries.releaseKey,
  };
}

export type IdempotencyStore = ReturnType<typeof idempotencyStore>;

/** The hourly cron's share: answers older than the TTL go (lookups already treat them as gone). */
export function purgeExpiredKeys(db: Db, now = new Date()): Promise<number> {
  return queries.purgeKeysBefore(
    db,
    new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 3_600_000).toISOString(),
  );
}
