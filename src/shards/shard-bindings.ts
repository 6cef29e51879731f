import { LEGACY_SHARD } from "../db/workspaces-schema";

const SHARD_BINDING = /^DB_SHARD_(0|[1-9][0-9]{0,3})$/;

/** The data databases this deployment binds (DB_SHARD_<n> in wrangler.jsonc), in order. */
export function shardNames(env: Env): string[] {
  return Object.keys(env)
    .filter((name) => SHARD_BINDING.test(name))
    .sort((a, b) => Number(a.slice(9)) - Number(b.slice(9)));
}

/** The D1 binding of a shard name (a DB_SHARD_<n>, or the directory's legacy data), or null for any other name. */
export function shardBinding(env: Env, shard: string): D1Database | null {
  if (shard === LEGACY_SHARD) return env.DB;
  if (!SHARD_BINDING.test(shard)) return null;
  const binding = (env as unknown as Record<string, unknown>)[shard];
  return binding ? (binding as D1Database) : null;
}
