import type { Owner } from "../core/owner";
import type { Db } from "../db/client";
import { openSyncCursor, sealSyncCursor } from "./sync-cursors";
import { changesSince, purgeChangesBefore, type ChangesSince } from "./todo-changes.queries";
import { eventOfChange, type TodoEvent } from "./todo-events";

/** How long the change log keeps a change (tombstones included); an older cursor must sync in full. */
export const SYNC_HORIZON_DAYS = 30;
// A cron run removes at most this many chunks, so one run stays short; the next continues.
const MAX_PURGE_CHUNKS = 20;

export type SyncAnswer =
  | {
      kind: "changes";
      changes: (TodoEvent & { todo: ChangesSince["changes"][number]["todo"] })[];
      cursor: string;
      hasMore: boolean;
    }
  | { kind: "stale"; cursor: string }
  | { kind: "invalid" };

/**
 * What changed in a user's or a team's todos after `cursor` (START_CURSOR or one sealed for that owner
 * with `secret`): each write once, in commit order, with the todo where this is its latest change.
 * Stale when changes after the cursor may have been purged; the answer then carries the current cursor
 * to continue from after a full listing. Invalid for a cursor that was not sealed for this owner.
 */
export async function syncTodos(
  db: Db,
  secret: string,
  owner: Owner,
  cursor: string,
  limit: number,
): Promise<SyncAnswer> {
  const after = await openSyncCursor(secret, owner, cursor);
  if (after === null) return { kind: "invalid" };
  const page = await changesSince(db, owner, after, limit);
  const syncCursor = (changeId: number) => sealSyncCursor(secret, owner, changeId);
  // Every cursor we answer is at most the owner's latest change: a higher one is not a position we gave.
  if (after > Math.max(page.latest, page.purgedThrough)) return { kind: "invalid" };
  if (page.purgedThrough > after) {
    return { kind: "stale", cursor: await syncCursor(Math.max(page.latest, page.purgedThrough)) };
  }
  const changes = page.changes.map(({ change, todo }) => ({ ...eventOfChange(change), todo }));
  const last = page.changes.at(-1)?.change.id ?? after;
  return { kind: "changes", changes, cursor: await syncCursor(last), hasMore: page.hasMore };
}

/** The hourly cron's share: changes older than the horizon go, each owner's floor rising with them. */
export async function purgeOldChanges(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - SYNC_HORIZON_DAYS * 86_400_000).toISOString();
  let total = 0;
  for (let i = 0; i < MAX_PURGE_CHUNKS; i++) {
    const removed = await purgeChangesBefore(db, before);
    total += removed;
    if (removed === 0) break;
  }
  return total;
}
