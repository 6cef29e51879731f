import { fileNameFromKey, isStorableKey } from "../files/file-keys";

/** Attachments one create or update may submit. */
export const MAX_ATTACHMENTS = 20;

/** The server-side fields of an attachment row, read from the stored object. */
export interface AttachmentFile {
  fileKey: string;
  filePath: string;
  fileSize: number;
  fileHash: string;
  fileName: string;
}

/**
 * Looks every distinct key up in R2 (in parallel) and describes the objects that exist; keys
 * without an object are dropped (no attachment row points at nothing). An R2 failure rejects the whole lookup.
 */
export async function resolveAttachments(
  bucket: R2Bucket,
  inputs: readonly { fileKey: string }[],
): Promise<AttachmentFile[]> {
  const keys = [...new Set(inputs.map((input) => input.fileKey))];
  const objects = await Promise.all(keys.map((key) => (isStorableKey(key) ? bucket.head(key) : null)));
  return objects.flatMap((object) =>
    object
      ? [
          {
            fileKey: object.key,
            filePath: object.key,
            fileSize: object.size,
            fileHash: object.etag,
            fileName: fileNameFromKey(object.key),
          },
        ]
      : [],
  );
}
