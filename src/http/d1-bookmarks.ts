import { isShardName, LEGACY_SHARD, type ShardName } from "../db/shard-names";

// One x-d1-bookmark header for every database a client's requests touched: the directory's bookmark bare
// (what a single-database deployment sent, still accepted), then `<binding>=<bookmark>` per data database,
// comma-separated: `00000085-…,DB_SHARD_0=0000002a-…`.

// What D1 hands out: dash-separated hex groups (`00000085-0000024c-00004f2a-<32 hex>`).
const BOOKMARK = /^[0-9a-f]{8}(?:-[0-9a-f]{8,64}){1,7}$/i;
// The directory and a few dozen shards: more is not a header we wrote.
const MAX_ENTRIES = 64;

/** The bookmark of each database the header names, or null when it is not one we wrote. */
export function parseBookmarks(env: Env, header: string): Map<ShardName, string> | null {
  const entries = header.split(",");
  if (entries.length > MAX_ENTRIES) return null;
  const bookmarks = new Map<ShardName, string>();
  for (const [i, entry] of entries.entries()) {
    const at = entry.indexOf("=");
    const name = at === -1 ? LEGACY_SHARD : entry.slice(0, at);
    const bookmark = at === -1 ? entry : entry.slice(at + 1);
    if ((at === -1 && i > 0) || !isShardName(env, name) || bookmarks.has(name) || !BOOKMARK.test(bookmark)) {
      return null;
    }
    bookmarks.set(name, bookmark);
  }
  return bookmarks;
}

/** The header for `bookmarks` (the directory's first, bare), or undefined when there are none. */
export function formatBookmarks(bookmarks: ReadonlyMap<ShardName, string>): string | undefined {
  const directory = bookmarks.get(LEGACY_SHARD);
  const shards = [...bookmarks].filter(([name]) => name !== LEGACY_SHARD).map(([name, b]) => `${name}=${b}`);
  const entries = directory === undefined ? shards : [directory, ...shards];
  return entries.length > 0 ? entries.join(",") : undefined;
}
