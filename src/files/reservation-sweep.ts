import type { Db } from "../db/client";
import { recordedKeys } from "./file-records.queries";
import { takeExpiredReservations } from "./quota.queries";

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
