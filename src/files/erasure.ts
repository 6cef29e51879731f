import type { Logger } from "../core/logger";
import type { Db } from "../db/client";
import * as queries from "./erasure.queries";

/** A deleted user with at most this many objects has them erased by the delete request itself. */
export const ERASE_IN_REQUEST = 100;
/** R2 deletes up to 1,000 keys in one call. */
const SWEEP_BATCH = 1000;
const SWEEP_BATCHES_PER_RUN = 10;

export { queueOrgObjects, queueUserObjects } from "./erasure.queries";

export interface ErasureOutcome {
  /** Objects and unfinished uploads the user had. */
  objects: number;
  /** Left to the hourly cron: too many for one request, or R2 failed meanwhile. */
  pending: boolean;
}

/**
 * Deletes the objects of these queued rows and aborts their multipart uploads, then drops the rows.
 * Idempotent: deleting a missing key is no error. If R2 fails, the rows stay for the next attempt.
 */
async function eraseRows(bucket: R2Bucket, db: Db, rows: queries.QueuedObject[], erasureId?: string) {
  await bucket.delete(rows.map((row) => row.key));
  await Promise.all(
    rows.flatMap((row) =>
      row.r2UploadId
        ? // R2 just answered the delete, so a failed abort means the upload is gone already.
          [
            bucket
              .resumeMultipartUpload(row.key, row.r2UploadId)
              .abort()
              .catch(() => {}),
          ]
        : [],
    ),
  );
  await queries.dropQueuedThrough(db, erasureId, rows.at(-1)!.id);
}

/** Right after the user's delete batch: erases their objects now when few, else leaves them to the cron. */
export async function eraseNowIfSmall(
  bucket: R2Bucket,
  db: Db,
  erasureId: string,
  logger: Logger,
): Promise<ErasureOutcome> {
  const rows = await queries.nextQueued(db, erasureId, ERASE_IN_REQUEST + 1);
  if (rows.length > ERASE_IN_REQUEST) {
    return { objects: await queries.countQueued(db, erasureId), pending: true };
  }
  if (rows.length === 0) return { objects: 0, pending: false };
  try {
    await eraseRows(bucket, db, rows, erasureId);
    return { objects: rows.length, pending: false };
  } catch (err) {
    logger.error("erasure_deferred", { erasureId, objects: rows.length, error: String(err) });
    return { objects: rows.length, pending: true };
  }
}

export interface SweepLimits {
  batchSize?: number;
  maxBatches?: number;
}

/**
 * The cron's part: erases queued objects of every deleted user, oldest first, in bounded batches.
 * A run that stops (a limit, an R2 failure) leaves the rest queued for the next one.
 */
export async function sweepErasures(
  bucket: R2Bucket,
  db: Db,
  { batchSize = SWEEP_BATCH, maxBatches = SWEEP_BATCHES_PER_RUN }: SweepLimits = {},
): Promise<number> {
  let erased = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const rows = await queries.nextQueued(db, undefined, batchSize);
    if (rows.length === 0) break;
    await eraseRows(bucket, db, rows);
    erased += rows.length;
  }
  return erased;
}
