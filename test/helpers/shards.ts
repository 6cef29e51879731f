import { env } from "cloudflare:workers";

/** A user's personal workspace or a team's, as the directory's workspaces_table keys them. */
export type WorkspaceOf = { userId: number } | { orgId: number };

/** The binding name of the data database holding `owner`'s workspace ("DB" for a legacy one), or null. */
export async function shardOf(owner: WorkspaceOf): Promise<string | null> {
  const [column, id] = "userId" in owner ? ["userId", owner.userId] : ["orgId", owner.orgId];
  const row = await env.DB.prepare(`SELECT shard FROM workspaces_table WHERE ${column} = ?`)
    .bind(id)
    .first<{ shard: string }>();
  return row?.shard ?? null;
}

/** The data database of `owner`'s workspace: where a test reads or plants its rows. */
export async function dataDb(owner: WorkspaceOf): Promise<D1Database> {
  const shard = await shardOf(owner);
  if (!shard) throw new Error(`no workspace for ${JSON.stringify(owner)}`);
  return (env as unknown as Record<string, D1Database>)[shard]!;
}

/** Every database that may hold data rows: the directory's legacy tables and each DB_SHARD_<n>. */
export function allDataDbs(): D1Database[] {
  return Object.entries(env)
    .filter(([name]) => name === "DB" || /^DB_SHARD_\d+$/.test(name))
    .map(([, binding]) => binding as D1Database);
}

/** The first row `sql` finds in any data database (ids are unique across them). */
export async function firstRowAnywhere<T>(sql: string, ...params: unknown[]): Promise<T | null> {
  for (const db of allDataDbs()) {
    const row = await db
      .prepare(sql)
      .bind(...params)
      .first<T>();
    if (row) return row;
  }
  return null;
}

/** Env overrides that replace `owner`'s data database with `replace(it)` (a fault injected where its rows are). */
export async function onShardOf(
  owner: WorkspaceOf,
  replace: (shard: D1Database) => D1Database,
): Promise<Record<string, D1Database>> {
  const name = await shardOf(owner);
  if (!name) throw new Error(`no workspace for ${JSON.stringify(owner)}`);
  return { [name]: replace((env as unknown as Record<string, D1Database>)[name]!) };
}

/** Puts an empty workspace on `shard` (what a finished move leaves; "DB" makes it a legacy one), bumping its version. */
export async function placeOn(owner: WorkspaceOf, shard: string) {
  const [column, id] = "userId" in owner ? ["userId", owner.userId] : ["orgId", owner.orgId];
  await env.DB.prepare(`UPDATE workspaces_table SET shard = ?, version = version + 1 WHERE ${column} = ?`)
    .bind(shard, id)
    .run();
}
