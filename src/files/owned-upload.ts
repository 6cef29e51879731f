import type { BatchItem } from "drizzle-orm/batch";
import { maxUploadBytes } from "../core/config";
import type { Owner } from "../core/owner";
import type { Db } from "../db/client";
import type { Databases } from "../db/databases";
import { quotaOf } from "./file-owner";
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

export interface UploadFor {
  /** The uploader. */
  userId: number;
  /**
   * Whose the upload is, given the form's `orgId` (undefined when none came before the file): the
   * user's own, or a team's, after checking that the caller may upload there (or throwing).
   */
  ownerFor: (orgId: number | undefined) => Promise<Owner>;
  /** Statements for the batch that records the file in `db` (a team's audit entry). */
  alongsideRecord: (db: Db, file: StoredUpload) => BatchItem<"sqlite">[];
}

/**
 * POST /api/upload: the form streamed into R2 (form-upload.ts) within its owner's quota (the user's,
 * or the team's for an upload with `orgId`), then recorded. The quota is checked twice: against the
 * room left when the file part starts, so an oversized body stops early, and atomically in D1 once the
 * size is known, before the object is visible, so parallel uploads cannot share the last room.
 */
export async function storeOwnedUpload(
  env: Env,
  dbs: Databases,
  request: Request,
  uploader: UploadFor,
): Promise<StoredUpload> {
  const reservationId = crypto.randomUUID();
  // Where the reservation was made: the owner's data database (each dbs.of() after the first is remembered).
  let reservedIn: Db | undefined;
  try {
    const stored = await storeUpload(env.R2_BUCKET, request, {
      maxBytes: maxUploadBytes(env),
      admit: async (orgId) => {
        const owner = await uploader.ownerFor(orgId);
        const quotaBytes = quotaOf(env, owner);
        const room = roomLeft(await usageOf(await dbs.of(owner), owner, quotaBytes));
        const overQuota = () =>
          new QuotaExceededError(
            quotaBytes,
            quotaBytes - room,
            `more than the ${room} bytes left`,
            undefined,
            owner,
          );
        return { owner, room, overQuota };
      },
      beforeVisible: async (owner, key, size) => {
        const expiresAt = new Date(Date.now() + RESERVATION_TTL_MS).toISOString();
        const orgId = owner.kind === "org" ? owner.orgId : null;
        const reservation = {
          id: reservationId,
          userId: uploader.userId,
          orgId,
          key,
          bytes: size,
          expiresAt,
        };
        const db = await dbs.of(owner);
        await reserve(db, reservation, quotaOf(env, owner));
        reservedIn = db;
      },
    });
    const db = await dbs.of(stored.owner);
    await recordObject(env.R2_BUCKET, db, reservationId, stored, uploader.alongsideRecord(db, stored));
    return stored;
  } catch (err) {
    // A put that failed after the reservation: give the room back now rather than at its expiry.
    if (reservedIn) await releaseReservation(reservedIn, reservationId).catch(() => {});
    throw err;
  }
}
