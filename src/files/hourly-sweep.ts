import type { Logger } from "../core/logger";
import { createDb, type Db } from "../db/client";
import { sweepErasures } from "./erasure";
import { recordedKeys } from "./file-records.queries";
import { takeExpiredReservations } from "./quota.queries";
import { expireUploads } from "./resumable-expiry";

const RESERVATIONS_PER_RUN = 100;

/**
 * Drops expired reservations and deletes any object one left unrecorded (its upload stopped between
 * R2 and D1). Taking the row first makes this exclusive with the upload's own record, which needs it.
 */
export async function sweepReservations(bucket: R2Bucket, db: Db, now = new Date()): Promise<number> {
  const taken = await takeExpiredReservations(db, now.toISOString(), RESERVATIONS_PER_RUN);
  const recorded = await recordedKeys(
    db,
    taken.map((r) => r.key),
  );
  const orphans = taken.map((r) => r.key).filter((key) => !recorded.has(key));
  if (orphans.length > 0) await bucket.delete(orphans);
  return taken.length;
}

/**
 * The hourly cron trigger: abort resumable uploads nobody finished, drop expired quota reservations,
 * erase what deleted users left. Each job runs even when another fails; all are idempotent.
 */
export async function hourlySweep(env: Env, logger: Logger): Promise<void> {
  const db = createDb(env.DB);
  const jobs: [string, () => Promise<number>][] = [
    ["uploads", () => expireUploads(env, logger)],
    ["reservations", () => sweepReservations(env.R2_BUCKET, db)],
    ["erasures", () => sweepErasures(env.R2_BUCKET, db)],
  ];
  for (const [job, run] of jobs) {
    try {
      const done = await run();
      if (done > 0) logger.info("sweep_done", { job, done });
    } catch (err) {
      logger.error("sweep_failed", { job, error: String(err) });
    }
  }
}
