import type { Db } from "../db/client";
import type { Logger } from "../core/logger";
import { deleteUpload, listExpiredUploads, type UploadRow } from "./resumable.queries";

/** How long a resumable upload may stay unfinished. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
const EXPIRED_PER_RUN = 50;

/**
 * Aborts the R2 multipart upload (dropping its parts), then forgets the row. An abort that fails
 * keeps the row, so the next attempt (or the cron run) retries it, unless the upload was in fact
 * completed (the object exists) and only its row was left behind.
 */
export async function discardUpload(bucket: R2Bucket, db: Db, upload: UploadRow): Promise<void> {
  try {
    await bucket.resumeMultipartUpload(upload.key, upload.r2UploadId).abort();
  } catch (err) {
    if (!(await bucket.head(upload.key))) throw err;
  }
  await deleteUpload(db, upload.id);
}

export function isExpired(upload: UploadRow, now = new Date()): boolean {
  return upload.expiresAt <= now.toISOString();
}

/** The cron trigger's job, per data database: abort uploads nobody finished, a batch per run. */
export async function expireUploads(env: Env, db: Db, logger: Logger): Promise<number> {
  const expired = await listExpiredUploads(db, new Date().toISOString(), EXPIRED_PER_RUN);
  let aborted = 0;
  for (const upload of expired) {
    try {
      await discardUpload(env.R2_BUCKET, db, upload);
      aborted++;
    } catch (err) {
      logger.error("upload_expiry_failed", { uploadId: upload.id, error: String(err) });
    }
  }
  if (expired.length > 0) logger.info("uploads_expired", { aborted, found: expired.length });
  return aborted;
}
