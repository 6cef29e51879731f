import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { orgOwner, ownerKey, userOwner, type Owner } from "../../src/core/owner";
import { forgetRoutes } from "../../src/db/route-cache";
import type { MovePlan } from "../../src/shards/move-plan";
import { MOVED_TABLES } from "../../src/shards/moved-tables";
import { shardBinding } from "../../src/db/shard-names";
import { ownerIdOf, ownerWhere } from "../../src/shards/workspace-sql";

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

/** Every D1 database by its binding: the directory ("DB", with its legacy data tables) and each DB_SHARD_<n>. */
export function namedDatabases(): { name: string; db: D1Database }[] {
  return Object.entries(env)
    .filter(([name]) => name === "DB" || /^DB_SHARD_\d+$/.test(name))
    .map(([name, binding]) => ({ name, db: binding as D1Database }));
}

/** Every database that may hold data rows: the directory's legacy tables and each DB_SHARD_<n>. */
export function allDataDbs(): D1Database[] {
  return namedDatabases().map(({ db }) => db);
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

/**
 * Puts the workspace on `shard` in the directory alone, bumping its version: the route a request finds,
 * and nothing else. The isolate's remembered route stays (what a move's waits are there to prevent).
 */
export async function pointAt(owner: WorkspaceOf, shard: string) {
  const [column, id] = "userId" in owner ? ["userId", owner.userId] : ["orgId", owner.orgId];
  await env.DB.prepare(`UPDATE workspaces_table SET shard = ?, version = version + 1 WHERE ${column} = ?`)
    .bind(shard, id)
    .run();
}

/** Puts an empty workspace on `shard` (what a finished move leaves; "DB" makes it a legacy one), bumping its version. */
export async function placeOn(owner: WorkspaceOf, shard: string) {
  await pointAt(owner, shard);
  // A move waits until no isolate remembers the old route; this one forgets it at once.
  forgetRoutes(ownerKey("userId" in owner ? userOwner(owner.userId) : orgOwner(owner.orgId)));
}

export interface WorkspaceRow {
  id: number;
  userId: number | null;
  orgId: number | null;
  shard: string;
  state: string;
  targetShard: string | null;
  version: number;
}

/** The directory's row of an owner's workspace, made on "DB" when the owner has none yet. */
export async function workspaceOf(owner: Owner): Promise<WorkspaceRow> {
  const column = owner.kind === "user" ? "userId" : "orgId";
  const find = () =>
    env.DB.prepare(`SELECT * FROM workspaces_table WHERE ${column} = ?1`)
      .bind(ownerIdOf(owner))
      .first<WorkspaceRow>();
  const found = await find();
  if (found) return found;
  await env.DB.prepare(`INSERT INTO workspaces_table (${column}, shard) VALUES (?1, 'DB')`)
    .bind(ownerIdOf(owner))
    .run();
  return (await find())!;
}

export const moverOf = (workspaceId: number) =>
  env.ShardMover.get(env.ShardMover.idFromName(`workspace-${workspaceId}`));

/** Runs a workspace's move to its end (its alarm now, each time it is set) and returns its last plan. */
export async function finishedMove(workspaceId: number, timeoutMs = 20_000): Promise<MovePlan> {
  const mover = moverOf(workspaceId);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await runDurableObjectAlarm(mover);
    const plan = await mover.progress();
    if (plan && (plan.phase === "done" || plan.phase === "failed")) return plan;
    if (Date.now() > deadline) throw new Error(`move still at ${plan?.phase}: ${plan?.lastError}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until a move reaches a phase (or a later one), or records an error. */
export async function moveReaches(
  workspaceId: number,
  until: (plan: MovePlan) => boolean,
  timeoutMs = 10_000,
) {
  const mover = moverOf(workspaceId);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await runDurableObjectAlarm(mover);
    const plan = await mover.progress();
    if (plan && until(plan)) return plan;
    if (Date.now() > deadline) throw new Error(`move at ${plan?.phase}: ${plan?.lastError}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Every row of the owner's workspace in one database, table by table, in key order. */
export async function workspaceRows(shard: string, owner: Owner): Promise<Record<string, unknown[]>> {
  const db = shardBinding(env, shard);
  const out: Record<string, unknown[]> = {};
  for (const table of MOVED_TABLES) {
    const where = ownerWhere(table, owner);
    if (!where) continue;
    const order = table.primaryKey.map((c) => `"${c}"`).join(", ");
    const { results } = await db
      .prepare(`SELECT * FROM "${table.name}" WHERE ${where} ORDER BY ${order}`)
      .bind(ownerIdOf(owner))
      .all();
    out[table.name] = results;
  }
  return out;
}

/** Rows of the workspace in a database, all tables together. */
export async function rowCount(shard: string, owner: Owner): Promise<number> {
  const rows = await workspaceRows(shard, owner);
  return Object.values(rows).reduce((n, r) => n + r.length, 0);
}

export function expectMoved(plan: MovePlan) {
  expect(plan.failure, plan.lastError ?? undefined).toBeNull();
  expect(plan.phase).toBe("done");
}

/** Runs `sql` on every data database: a row a test changes is in one of them, and ids are unique across them. */
export async function runEverywhere(sql: string, ...params: unknown[]): Promise<void> {
  for (const db of allDataDbs()) {
    await db
      .prepare(sql)
      .bind(...params)
      .run();
  }
}

/** The sum of a `SELECT count(*) AS n` over every data database. */
export async function countEverywhere(sql: string, ...params: unknown[]): Promise<number> {
  let n = 0;
  for (const db of allDataDbs()) {
    const row = await db
      .prepare(sql)
      .bind(...params)
      .first<{ n: number }>();
    n += row?.n ?? 0;
  }
  return n;
}
