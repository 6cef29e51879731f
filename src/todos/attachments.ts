import { userOwner } from "../core/owner";
import { mayAttachTo } from "../files/attachable";
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

/** An object the writer may attach: a public one (its key is the capability), or a private one of theirs. */
function attachable(object: R2Object | null, writerId: number): object is R2Object {
  return object !== null && mayAttachTo(object, userOwner(writerId));
}

/**
 * Looks every distinct key up in R2 (in parallel) and describes the objects `writerId` may attach;
 * keys without an object, and someone else's private files, are dropped alike (not found: no
 * attachment row points at nothing, nor shows a stranger's private file). An R2 failure rejects the
 * whole lookup.
 */
export async function resolveAttachments(
  bucket: R2Bucket,
  inputs: readonly { fileKey: string }[],
  writerId: number,
): Promise<AttachmentFile[]> {
  const keys = [...new Set(inputs.map((input) => input.fileKey))];
  const objects = await Promise.all(keys.map((key) => (isStorableKey(key) ? bucket.head(key) : null)));
  return objects.flatMap((object) =>
    attachable(object, writerId)
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
