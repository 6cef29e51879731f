import type { Owner } from "../core/owner";
import { ownerUuid } from "../core/owner-uuids";
import type { Db } from "../db/client";
import { buildObjectKey } from "./file-keys";
import { quotaOf } from "./file-owner";
import { releaseReservation, reserve } from "./quota";
import { UPLOAD_TTL_MS } from "./resumable-expiry";
import { partSizeFor } from "./resumable-parts";
import { insertUpload, type UploadRow } from "./resumable.queries";
import { callStorage } from "./storage-errors";
import { objectMetadata, type Visibility } from "./visibility";

export interface ResumableInput {
  fileName: string;
  contentType: string;
  directory?: string;
  size?: number;
  visibility: Visibility;
}

/**
 * Opens a resumable upload: its quota reservation (the declared size, or nothing yet: then each part
 * reserves its own bytes) against its owner's quota (the uploader's, or the team's it is for), the R2
 * multipart upload, and the row that lets its uploader drive it. The reservation comes first, so an
 * upload that cannot fit costs no R2 call; a later failure undoes what came before it.
 */
export async function openResumableUpload(
  env: Env,
  db: Db,
  userId: number,
  owner: Owner,
  input: ResumableInput,
  now = new Date(),
): Promise<UploadRow> {
  // Both carry the owner, so the upload and its file find their workspace from the id or the key alone.
  const key = buildObjectKey(input.fileName, input.directory || undefined, ownerUuid(owner));
  const id = ownerUuid(owner);
  const expiresAt = new Date(now.getTime() + UPLOAD_TTL_MS).toISOString();
  const orgId = owner.kind === "org" ? owner.orgId : null;
  await reserve(db, { id, userId, orgId, key, bytes: input.size ?? 0, expiresAt }, quotaOf(env, owner), now);
  let multipart: R2MultipartUpload | undefined;
  try {
    multipart = await callStorage("createMultipartUpload", () =>
      env.R2_BUCKET.createMultipartUpload(key, {
        httpMetadata: { contentType: input.contentType },
        customMetadata: objectMetadata(input.fileName, input.visibility, owner),
      }),
    );
    const upload = {
      id,
      userId,
      key,
      r2UploadId: multipart.uploadId,
      contentType: input.contentType,
      partSize: partSizeFor(input.size),
      size: input.size ?? null,
      expiresAt,
      completingAt: null,
      createdAt: now.toISOString(),
      orgId,
    };
    // Without its row nobody could finish or abort the R2 upload, so it is dropped if the insert fails.
    await insertUpload(db, upload);
    return upload;
  } catch (err) {
    await multipart?.abort().catch(() => {});
    await releaseReservation(db, id).catch(() => {});
    throw err;
  }
}
