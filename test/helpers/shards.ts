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
