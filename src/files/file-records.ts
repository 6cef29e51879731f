import type { BatchItem } from "drizzle-orm/batch";
import { Failure } from "../core/failures";
import type { Db } from "../db/client";
import { recordFromReservation, type FileRow, type RecordedFile } from "./file-records.queries";

/** The reservation went (expired and swept, or its user deleted) before the object was recorded. */
export class RecordLostError extends Failure {
  readonly kind = "unavailable";

  constructor(readonly key: string) {
    super(`no reservation left to record ${key}`);
    this.name = "RecordLostError";
  }

  get publicMessage() {
    return "The upload could not be recorded: send it again";
  }

  get retryAfterSeconds() {
    return 1;
  }
}

/**
 * Records a stored object against its reservation (see recordFromReservation). If that fails, the
 * object is deleted: every object this service keeps has a record naming its owner.
 */
export async function recordObject(
  bucket: R2Bucket,
  db: Db,
  reservationId: string,
  file: RecordedFile & { key: string },
  alongside: BatchItem<"sqlite">[] = [],
): Promise<FileRow> {
  try {
    const row = await recordFromReservation(db, reservationId, file, alongside);
    if (!row) throw new RecordLostError(file.key);
    return row;
  } catch (err) {
    await bucket.delete(file.key).catch(() => {});
    throw err;
  }
}
