import { env } from "cloudflare:workers";
import { sha256 } from "./storage";

/** Row count and a hash of every row, per D1 table; count and keys of every R2 object and OAuth KV record. */
export interface StoredState {
  tables: Record<string, { rows: number; hash: string }>;
  r2: { objects: number; hash: string };
  /** Each record's name and expiry (seconds): a record that expires between two snapshots is no change. */
  kv: { name: string; expiration?: number }[];
}

const encoder = new TextEncoder();
const hashOf = (value: unknown) => sha256(encoder.encode(JSON.stringify(value)));

async function tableNames(db: D1Database): Promise<string[]> {
  // D1's own bookkeeping (_cf_*, migrations) is not application state.
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' " +
        "AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name",
    )
    .all<{ name: string }>();
  return results.map((row) => row.name);
}

async function objectKeys(bucket: R2Bucket): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor, limit: 1000 });
    keys.push(...page.objects.map((object) => `${object.key}\u0000${object.etag}`));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/** Every key in the OAuth namespace (clients, grants, tokens, consent transactions). */
async function kvKeys(kv: KVNamespace): Promise<StoredState["kv"]> {
  const keys: StoredState["kv"] = [];
  let cursor: string | undefined;
  do {
    const page = await kv.list({ cursor });
    keys.push(...page.keys.map(({ name, expiration }) => ({ name, expiration })));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return keys;
}

/** Everything the service stores, to compare before and after a request that must change nothing. */
export async function snapshotState(
  db: D1Database = env.DB,
  bucket: R2Bucket = env.R2_BUCKET,
  kv: KVNamespace = env.OAUTH_KV,
) {
  // One batch reads every table, beside the bucket and namespace listings: a fuzzed request waits for one round trip each.
  const names = await tableNames(db);
  const [results, keys, records] = await Promise.all([
    db.batch(names.map((name) => db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`))),
    objectKeys(bucket),
    kvKeys(kv),
  ]);
  const tables: StoredState["tables"] = {};
  for (const [i, name] of names.entries()) {
    const rows = results[i]!.results;
    tables[name] = { rows: rows.length, hash: await hashOf(rows) };
  }
  return {
    tables,
    r2: { objects: keys.length, hash: await hashOf(keys) },
    kv: records,
  } satisfies StoredState;
}

/** The tables and bucket entries that differ, or null when both states are the same. */
export function stateDiff(before: StoredState, after: StoredState): string | null {
  const changes: string[] = [];
  for (const name of new Set([...Object.keys(before.tables), ...Object.keys(after.tables)])) {
    const a = before.tables[name];
    const b = after.tables[name];
    if (a?.rows !== b?.rows || a?.hash !== b?.hash) changes.push(`${name}: ${a?.rows} -> ${b?.rows} rows`);
  }
  if (before.r2.hash !== after.r2.hash)
    changes.push(`R2: ${before.r2.objects} -> ${after.r2.objects} objects`);
  // Records past their expiry (a consent handle, an authorization code) vanish on their own in a long run.
  const now = Date.now() / 1000;
  const live = (records: StoredState["kv"]) =>
    records
      .filter((record) => record.expiration === undefined || record.expiration > now)
      .map((record) => record.name)
      .join("\n");
  if (live(before.kv) !== live(after.kv))
    changes.push(`KV: ${before.kv.length} -> ${after.kv.length} records`);
  return changes.length ? changes.join("; ") : null;
}
