import { restoreWindowMs } from "./config";
import { Failure } from "./failures";

// How long a delete can be undone (RESTORE_WINDOW_SECONDS), for todos and files alike.

/** The moment a delete must be after to be restorable now (ISO, as deletedAt is stored). */
export function restorableSince(env: Env, now = Date.now()): string {
  return new Date(now - restoreWindowMs(env)).toISOString();
}

/** Until when a delete made at `deletedAt` can be restored. */
export function restorableUntil(env: Env, deletedAt: string): string {
  return new Date(Date.parse(deletedAt) + restoreWindowMs(env)).toISOString();
}

/** It was deleted longer ago than the restore window: it cannot come back. */
export class RestoreWindowPassedError extends Failure {
  readonly kind = "gone";

  constructor(what: "Todo" | "File", env: Env) {
    super(`${what} can no longer be restored: it was deleted more than ${restoreWindowMs(env) / 1000} s ago`);
    this.name = "RestoreWindowPassedError";
  }
}
