import type { Db } from "../db/client";
import { claimCompletion, releaseCompletion, type UploadRow } from "./resumable.queries";

/**
 * How long a completion holds its upload: R2 joins the parts and D1 records the file well within it.
 * A request that died holding it frees the upload after this long.
 */
export const COMPLETION_CLAIM_MS = 2 * 60_000;

const lapsedBefore = (now: Date) => new Date(now.getTime() - COMPLETION_CLAIM_MS).toISOString();

/** Another request is completing the upload: its parts and the upload itself must stay as they are. */
export function completionUnderWay(upload: Pick<UploadRow, "completingAt">, now = new Date()): boolean {
  return upload.completingAt !== null && upload.completingAt >= lapsedBefore(now);
}

/**
 * Runs `complete` while holding the upload's completion claim, so two completions never both reach
 * R2 (the loser would delete the object the winner recorded). Null when another request holds it.
 * A completion that fails gives the claim back; one that succeeds removes the upload with it.
 */
export async function whileCompleting<T>(
  db: Db,
  uploadId: string,
  complete: () => Promise<T>,
  now = new Date(),
): Promise<T | null> {
  const claimedAt = now.toISOString();
  if (!(await claimCompletion(db, uploadId, claimedAt, lapsedBefore(now)))) return null;
  try {
    return await complete();
  } catch (err) {
    await releaseCompletion(db, uploadId, claimedAt).catch(() => {});
    throw err;
  }
}
