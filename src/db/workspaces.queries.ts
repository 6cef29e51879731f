import { and, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Owner } from "../core/owner";
import type { Db } from "./client";
import { LEGACY_SHARD, type ShardName } from "./shard-names";
import { shardLoadsTable, workspacesTable } from "./workspaces-schema";

/** Where a workspace's rows are, and the version that says whether a remembered route is still current. */
export type WorkspaceRoute = Pick<
  typeof workspacesTable.$inferSelect,
  "id" | "shard" | "state" | "targetShard" | "version"
>;

const ROUTE = {
  id: workspacesTable.id,
  shard: workspacesTable.shard,
  state: workspacesTable.state,
  targetShard: workspacesTable.targetShard,
  version: workspacesTable.version,
};

const ownerIs = (owner: Owner) =>
  owner.kind === "user" ? eq(workspacesTable.userId, owner.userId) : eq(workspacesTable.orgId, owner.orgId);

/** The query reading `owner`'s route (null: no workspace yet), for a batch or on its own. */
export function selectWorkspaceRoute(directory: Db, owner: Owner) {
  return directory.select(ROUTE).from(workspacesTable).where(ownerIs(owner)).limit(1);
}

/**
 * The shard with the fewest workspaces among `shards` (shard_loads_table, kept by triggers), as a SQL
 * value: read in the statement that inserts, so two registrations at once both see the counts they move.
 */
const emptiestOf = (shards: readonly ShardName[]) =>
  sql`(SELECT c.value FROM json_each(${JSON.stringify(shards)}) AS c LEFT JOIN ${shardLoadsTable} AS l ON l.shard = c.value ORDER BY coalesce(l.workspaces, 0), c.key LIMIT 1)`;

/** A workspace's owner, or its id as SQL: a user or team inserted earlier in the same batch. */
type NewOwner = Owner | { userIdSql: SQL } | { orgIdSql: SQL };

const ownerColumns = (owner: NewOwner) => {
  if ("userIdSql" in owner) return { userId: owner.userIdSql };
  if ("orgIdSql" in owner) return { orgId: owner.orgIdSql };
  return owner.kind === "user" ? { userId: owner.userId } : { orgId: owner.orgId };
};

/**
 * Records `owner`'s workspace on the emptiest of `shards`, unless it has one (the UNIQUE indexes on
 * userId and orgId make a race harmless: the second insert does nothing).
 */
export function insertWorkspace(directory: Db, owner: NewOwner, shards: readonly ShardName[]) {
  return directory
    .insert(workspacesTable)
    .values({ ...ownerColumns(owner), shard: emptiestOf(shards) })
    .onConflictDoNothing();
}

/** Creates `owner`'s workspace if missing and answers its route, in one round trip. */
export async function ensureWorkspace(
  directory: Db,
  owner: Owner,
  shards: readonly ShardName[],
): Promise<WorkspaceRoute> {
  const [, [route]] = await directory.batch([
    insertWorkspace(directory, owner, shards),
    selectWorkspaceRoute(directory, owner),
  ]);
  if (!route) throw new Error(`No workspace for ${owner.kind} after insert`);
  return route;
}

/** Whether any workspace is still on the directory's legacy tables. */
export async function legacyWorkspacesRemain(directory: Db): Promise<boolean> {
  const [row] = await directory
    .select({ shard: shardLoadsTable.shard })
    .from(shardLoadsTable)
    .where(and(eq(shardLoadsTable.shard, LEGACY_SHARD), gt(shardLoadsTable.workspaces, 0)))
    .limit(1);
  return row !== undefined;
}
