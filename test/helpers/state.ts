import { env } from "cloudflare:workers";
import { namedDatabases } from "./shards";
import { sha256 } from "./storage";

/**
 * Row count and a hash of every row, per D1 table of every database (the directory and each shard, keyed
 * `<binding>.<table>`), and its write count; count and keys of every R2 object and OAuth KV record.
 */
export interface StoredState {
  tables: Record<string, { rows: number; hash: string }>;
  /** Row changes per table as its triggers counted them: these only grow, even where a write was undone. */
  writes: Record<string, number>;
  r2: { objects: number; hash: string };
  /** Each record's name and expiry (seconds): a record that expires between two snapshots is no change. */
  kv: { name: string; expiration?: number }[];
}

const encoder = new TextEncoder();
const hashOf = (value: unknown) => sha256(encoder.encode(JSON.stringify(value)));

/** Test-only: one row per application table, counting the rows its triggers saw change. */
const WRITES = "zz_test_writes";

async function tableNames(db: D1Database): Promise<string[]> {
  // D1's own bookkeeping (_cf_*, migrations) and the write counter are not application state.
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' " +
        `AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', '${WRITES}') ORDER BY name`,
    )
    .all<{ name: string }>();
  return results.map((row) => row.name);
}

const watched = new WeakSet<D1Database>();

/**
 * Triggers that count every row change (an insert, a delete, an update that changes a column) per
 * table, so a snapshot hashes again only the tables written since the last one, not every row of a
 * database the whole suite fills: the fuzzer takes one after each of its thousands of requests.
 */
async function watchWrites(db: D1Database): Promise<void> {
  if (watched.has(db)) return;
  const names = await tableNames(db);
  const columns = await db.batch<{ name: string }>(
    names.map((name) => db.prepare("SELECT name FROM pragma_table_info(?)").bind(name)),
  );
  const count = (table: string) => `UPDATE ${WRITES} SET n = n + 1 WHERE name = '${table}';`;
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${WRITES} (name TEXT PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0)`,
  ];
  for (const [i, table] of names.entries()) {
    const changed = columns[i]!.results.map(({ name }) => `OLD."${name}" IS NOT NEW."${name}"`).join(" OR ");
    statements.push(
      `INSERT OR IGNORE INTO ${WRITES} (name) VALUES ('${table}')`,
      `CREATE TRIGGER IF NOT EXISTS "${WRITES}_${table}_i" AFTER INSERT ON "${table}" BEGIN ${count(table)} END`,
      `CREATE TRIGGER IF NOT EXISTS "${WRITES}_${table}_d" AFTER DELETE ON "${table}" BEGIN ${count(table)} END`,
      `CREATE TRIGGER IF NOT EXISTS "${WRITES}_${table}_u" AFTER UPDATE ON "${table}" WHEN ${changed} BEGIN ${count(table)} END`,
    );
  }
  await db.batch(statements.map((sql) => db.prepare(sql)));
  watched.add(db);
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

/** Each table's state as of its write count: recomputed only when a trigger has counted a change since. */
const hashed = new WeakMap<D1Database, Map<string, { writes: number; rows: number; hash: string }>>();

async function tableStates(db: D1Database) {
  const cache = hashed.get(db) ?? new Map();
  hashed.set(db, cache);
  const { results: counters } = await db
    .prepare(`SELECT name, n FROM ${WRITES} ORDER BY name`)
    .all<{ name: string; n: number }>();
  const stale = counters.filter(({ name, n }) => cache.get(name)?.writes !== n);
  if (stale.length > 0) {
    const rows = await db.batch(
      stale.map(({ name }) => db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`)),
    );
    for (const [i, { name, n }] of stale.entries()) {
      const table = rows[i]!.results;
      cache.set(name, { writes: n, rows: table.length, hash: await hashOf(table) });
    }
  }
  return counters.map(({ name }) => ({ name, ...cache.get(name)! }));
}

/** Every table of the directory and of each shard, keyed by binding and name. */
async function allTableStates(): Promise<Pick<StoredState, "tables" | "writes">> {
  const states = await Promise.all(
    namedDatabases().map(async ({ name, db }) => {
      await watchWrites(db);
      return (await tableStates(db)).map((table) => ({ ...table, name: `${name}.${table.name}` }));
    }),
  );
  return {
    tables: Object.fromEntries(states.flat().map(({ name, rows, hash }) => [name, { rows, hash }])),
    writes: Object.fromEntries(states.flat().map(({ name, writes }) => [name, writes])),
  };
}

/**
 * Everything the service stores, in every database, to compare before and after a request that must
 * change nothing anywhere.
 */
export async function snapshotState() {
  const [{ tables, writes }, keys, records] = await Promise.all([
    allTableStates(),
    objectKeys(env.R2_BUCKET),
    kvKeys(env.OAUTH_KV),
  ]);
  return {
    tables,
    writes,
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

/**
 * The tables written between two snapshots, even where a later write undid an earlier one (the counts
 * only grow): a cheap sign that `stateDiff` may find a change in what happened between them.
 */
export function tablesWritten(before: StoredState, after: StoredState): string[] {
  return Object.keys(after.writes).filter((name) => after.writes[name] !== before.writes[name]);
}
