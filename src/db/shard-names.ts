// No drizzle here: Durable Objects read routes raw (workspaceBinding) and keep their start-up light.

/** The directory itself, holding the data of workspaces made before shards (moved out by the same mechanism). */
export const LEGACY_SHARD = "DB";

/** A data database's binding name: "DB_SHARD_<n>", or LEGACY_SHARD (the directory, for workspaces made before shards). */
export type ShardName = string;

const DATA_SHARD = /^DB_SHARD_(\d+)$/;

/** The data databases wrangler.jsonc binds, in shard order: adding a shard is one more DB_SHARD_<n> binding. */
export function dataShardNames(env: Env): ShardName[] {
  return Object.keys(env)
    .filter((name) => DATA_SHARD.test(name))
    .toSorted((a, b) => Number(DATA_SHARD.exec(a)![1]) - Number(DATA_SHARD.exec(b)![1]));
}

/** Where new workspaces may go: every data database, or the directory while none is bound. */
export function placementShards(env: Env): ShardName[] {
  const shards = dataShardNames(env);
  return shards.length > 0 ? shards : [LEGACY_SHARD];
}

/** The directory or a bound data database: what a workspace row or a bookmark may name. */
export function isShardName(env: Env, name: string): name is ShardName {
  return name === LEGACY_SHARD || (DATA_SHARD.test(name) && name in env);
}

/** The D1 binding of `shard` (checked with isShardName first). */
export function shardBinding(env: Env, shard: ShardName): D1Database {
  return (env as unknown as Record<ShardName, D1Database>)[shard]!;
}

/** The directory's D1 binding, for the few raw reads that skip drizzle to keep a Durable Object's start-up light. */
export function directoryBinding(env: Env): D1Database {
  return shardBinding(env, LEGACY_SHARD);
}

const ROUTE_OF = {
  user: "SELECT shard FROM workspaces_table WHERE userId = ?",
  org: "SELECT shard FROM workspaces_table WHERE orgId = ?",
} as const;

/** The raw D1 binding of `owner`'s data database (openDatabases() without drizzle); null while it has no workspace. */
export async function workspaceBinding(
  env: Env,
  owner: { kind: "user"; userId: number } | { kind: "org"; orgId: number },
): Promise<D1Database | null> {
  const row = await directoryBinding(env)
    .prepare(ROUTE_OF[owner.kind])
    .bind(owner.kind === "user" ? owner.userId : owner.orgId)
    .first<{ shard: string }>();
  return row && isShardName(env, row.shard) ? shardBinding(env, row.shard) : null;
}
