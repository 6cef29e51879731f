/**
 * D1 read replication: the service answers with `x-d1-bookmark`; sending back the newest one makes
 * later reads (possibly from a replica) at least as current as this tab's own writes.
 */
export const BOOKMARK_HEADER = "x-d1-bookmark";

let latest: string | null = null;

/** Bookmarks are fixed-width hex positions, so the larger string is the newer one. */
export function rememberBookmark(value: string | null): void {
  if (value && (latest === null || value > latest)) latest = value;
}

export function currentBookmark(): string | null {
  return latest;
}
