import { Failure } from "../core/failures";
import type { Owner } from "../core/owner";
import type { Db } from "../db/client";
import { ownerOfRow } from "./file-owner";
import * as queries from "./quota.queries";

/** How long a single upload's reservation lasts: from its size check to its record, seconds in practice. */
export const RESERVATION_TTL_MS = 60 * 60 * 1000;

/**
 * An upload or part would take the user past STORAGE_QUOTA_BYTES, or the team past
 * ORG_STORAGE_QUOTA_BYTES; the message names whose quota, its limit and usage.
 */
export class QuotaExceededError extends Failure {
  readonly kind = "too_large";

  constructor(limit: number, used: number, needed: string, what = "this upload", owner?: Owner) {
    super(
      `${owner?.kind === "org" ? "Team storage" : "Storage"} quota exceeded: the limit is ${limit} bytes, ${used} are in use ` +
        `(stored files and uploads in progress), and ${what} needs ${needed}`,
    );
    this.name = "QuotaExceededError";
  }
}

export interface Usage {
  /** Bytes of recorded files. */
  bytes: number;
  files: number;
  /** Bytes held by uploads in progress. */
  reservedBytes: number;
  quotaBytes: number;
}

export async function usageOf(db: Db, owner: Owner, quotaBytes: number, now = new Date()): Promise<Usage> {
  const [row] = await queries.readUsage(db, owner, now.toISOString());
  return { bytes: row?.stored ?? 0, files: row?.files ?? 0, reservedBytes: row?.reserved ?? 0, quotaBytes };
}

/** The bytes the user may still store; a streamed upload stops early past them. */
export function roomLeft(usage: Usage): number {
  return Math.max(0, usage.quotaBytes - usage.bytes - usage.reservedBytes);
}

/** The QuotaExceededError for `needed` more bytes of `what`, naming the owner's usage now. */
export async function refused(db: Db, owner: Owner, quotaBytes: number, needed: number, what?: string) {
  const usage = await usageOf(db, owner, quotaBytes);
  return new QuotaExceededError(
    quotaBytes,
    usage.bytes + usage.reservedBytes,
    `${needed} bytes`,
    what,
    owner,
  );
}

/** Holds `bytes` for an upload, or throws QuotaExceededError when they do not fit. */
export async function reserve(
  db: Db,
  reservation: queries.NewReservation,
  quotaBytes: number,
  now = new Date(),
): Promise<void> {
  if (await queries.insertReservationWithin(db, reservation, quotaBytes, now.toISOString())) return;
  throw await refused(db, ownerOfRow({ orgId: null, ...reservation }), quotaBytes, reservation.bytes);
}

/** Holds the room a part of an upload of undeclared size adds, or throws QuotaExceededError. */
export async function reservePart(
  db: Db,
  upload: { id: string; userId: number; orgId: number | null },
  partNumber: number,
  length: number,
  quotaBytes: number,
  now = new Date(),
): Promise<void> {
  const iso = now.toISOString();
  if (await queries.growReservationForPart(db, upload, partNumber, length, quotaBytes, iso)) return;
  throw await refused(db, ownerOfRow(upload), quotaBytes, length);
}

export { deleteReservation as releaseReservation } from "./quota.queries";
