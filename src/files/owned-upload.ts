import { maxUploadBytes, storageQuotaBytes } from "../core/config";
import type { Db } from "../db/client";
import { recordObject } from "./file-records";
import { storeUpload, type StoredUpload } from "./form-upload";
import {
  QuotaExceededError,
  releaseReservation,
  reserve,
  RESERVATION_TTL_MS,
  roomLeft,
  usageOf,
} from "./quota";

/**
 * POST /api/upload for a user: the form streamed into R2 (form-upload.ts) within the user's quota,
 * then recorded. The quota is checked twice: against the room left when the body starts, so an
 * oversized body stops early, and atomically in D1 once the size is known, before the object is
 * visible, so parallel uploads cannot share the last room.
 */
export async function storeOwnedUpload(
  env: Env,
  db: Db,
  userId: number,
  request: Request,
): Promise<StoredUpload> {
  const quotaBytes = storageQuotaBytes(env);
  const room = roomLeft(await usageOf(db, userId, quotaBytes));
  const reservationId = crypto.randomUUID();
  let reserved = false;
  try {
    const stored = await storeUpload(env.R2_BUCKET, request, {
      maxBytes: maxUploadBytes(env),
      ownerId: userId,
      room,
      overQuota: () =>
        new QuotaExceededError(quotaBytes, quotaBytes - room, `more than the ${room} bytes left`),
      beforeVisible: async (key, size) => {
        const expiresAt = new Date(Date.now() + RESERVATION_TTL_MS).toISOString();
        await reserve(db, { id: reservationId, userId, key, bytes: size, expiresAt }, quotaBytes);
        reserved = true;
      },
    });
    await recordObject(env.R2_BUCKET, db, reservationId, stored);
    return stored;
  } catch (err) {
    // A put that failed after the reservation: give the room back now rather than at its expiry.
    if (reserved) await releaseReservation(db, reservationId).catch(() => {});
    throw err;
  }
}
