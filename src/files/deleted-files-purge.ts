import type { Db } from "../db/client";
import { expiredDeletedFiles, forgetDeletedFiles } from "./file-trash.queries";

// 100 a round (the ids' bound parameters in D1), up to 10,000 a run.
const PURGE_BATCH = 100;
const PURGE_BATCHES_PER_RUN = 100;

/**
 * Erases the objects of files deleted at or before `cutoff` (past their restore window), then forgets
 * them: the object first, so a D1 failure leaves a row the next run finishes (deleting a missing key
 * is no error). Returns how many were purged.
 */
export async function purgeDeletedFiles(bucket: R2Bucket, db: Db, cutoff: string): Promise<number> {
  let purged = 0;
  for (let batch = 0; batch < PURGE_BATCHES_PER_RUN; batch++) {
    const rows = await expiredDeletedFiles(db, cutoff, PURGE_BATCH);
    if (rows.length === 0) break;
    await bucket.delete(rows.map((row) => row.key));
    await forgetDeletedFiles(
      db,
      rows.map((row) => row.id),
    );
    purged += rows.length;
    if (rows.length < PURGE_BATCH) break;
  }
  return purged;
}
