import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import type { Databases } from "../db/databases";
import { orgMembersTable, type OrgRole } from "../db/orgs-schema";
import { workspacesTable } from "../db/workspaces-schema";
import { selectWorkspaceRoute } from "../db/workspaces.queries";
import { orgOwner, ownerKey, userOwner, type Owner } from "../core/owner";
import { can } from "../orgs/org-roles";
import { roleRefusal, teamOfTodo, type TodoAction, type TodoReach } from "./todo-reach";
import { findTodoInReach } from "./todos.queries";

/** A reach with the data database of each workspace in it (src/db/databases.ts). */
export interface PlacedReach extends TodoReach {
  /** The distinct data databases holding a workspace in reach. */
  readonly dbs: readonly Db[];
  /** The data database of `owner`'s workspace (the user's own or a team's in reach). */
  dbOf(owner: Owner): Db;
}

const w = workspacesTable;
const m = orgMembersTable;
const placedReaches = new WeakMap<Databases, Map<string, Promise<PlacedReach>>>();

/** The user's own route and their teams' rows: at most one round trip to the directory. */
async function readRoutes(dbs: Databases, userId: number, teams: boolean) {
  const own = userOwner(userId);
  const teamRoutes = dbs.directory
    .select({ orgId: m.orgId, role: m.role, shard: w.shard })
    .from(m)
    .leftJoin(w, eq(w.orgId, m.orgId))
    .where(eq(m.userId, userId));
  // The memberships are read each time (they decide access); the user's route only when the isolate
  // does not remember it, in the same batch.
  if (dbs.knownRoute(own)) {
    return { ownRoute: await dbs.route(own), teamRows: teams ? await teamRoutes : [] };
  }
  const readAt = Date.now();
  const ownRoute = selectWorkspaceRoute(dbs.directory, own);
  const [found, teamRows] = teams ? await dbs.directory.batch([ownRoute, teamRoutes]) : [await ownRoute, []];
  return { ownRoute: await dbs.routeFound(own, found[0], readAt), teamRows };
}

async function readPlacedReach(dbs: Databases, userId: number, teams: boolean): Promise<PlacedReach> {
  const { ownRoute, teamRows } = await readRoutes(dbs, userId, teams);
  // A workspace not made yet (an account or team from before shards' scripts) is made now.
  const shardOf = async (owner: Owner, shard: string | null | undefined) =>
    shard ?? (await dbs.route(owner)).shard;
  const places = new Map<string, Db>();
  places.set(ownerKey(userOwner(userId)), dbs.shard(ownRoute.shard));
  const roles = new Map<number, OrgRole>();
  for (const row of teamRows) {
    roles.set(row.orgId, row.role);
    places.set(ownerKey(orgOwner(row.orgId)), dbs.shard(await shardOf(orgOwner(row.orgId), row.shard)));
  }
  return {
    userId,
    teams: roles,
    dbs: [...new Set(places.values())],
    dbOf: (owner) => {
      const db = places.get(ownerKey(owner));
      if (!db) throw new Error(`${ownerKey(owner)} is not in reach`);
      return db;
    },
  };
}

/**
 * The todos `userId` reaches (with `teams`, their teams' by role too) and where each workspace's rows are:
 * read once per Databases (a request), whoever asks.
 */
export function placeReach(dbs: Databases, userId: number, teams: boolean): Promise<PlacedReach> {
  let known = placedReaches.get(dbs);
  if (!known) placedReaches.set(dbs, (known = new Map()));
  const key = `${userId}:${teams}`;
  let placed = known.get(key);
  if (!placed) {
    placed = readPlacedReach(dbs, userId, teams);
    known.set(key, placed);
  }
  return placed;
}

/**
 * The first database of the reach where `find` finds something, with it; null when none does. Ids are
 * unique across databases (scripts/lib/shard-sequences.mjs), so at most one can.
 */
export async function findPlaced<T>(
  placed: PlacedReach,
  find: (db: Db) => Promise<T | null>,
): Promise<{ db: Db; found: T } | null> {
  const results = await Promise.all(placed.dbs.map(async (db) => ({ db, found: await find(db) })));
  const hit = results.find((result) => result.found !== null);
  return hit ? { db: hit.db, found: hit.found! } : null;
}

/** Todo `id` when the reach may `action` it, with the database that holds it; null otherwise. */
export async function findTodoPlaced(placed: PlacedReach, id: number, action: TodoAction) {
  const hit = await findPlaced(placed, (db) => findTodoInReach(db, id, placed, action));
  return hit && { db: hit.db, todo: hit.found };
}

/**
 * Why the reach's user may not `action` todo `id` (live or in the trash), when it is their team's and their
 * role lacks the action: the 403's message. Null otherwise: the todo is then not theirs to know of (404).
 */
export async function deniedTodoAction(
  placed: PlacedReach,
  id: number,
  action: TodoAction,
): Promise<string | null> {
  const hit = await findPlaced(placed, (db) => teamOfTodo(db, id));
  const role = hit ? placed.teams.get(hit.found) : undefined;
  return !role || can(role, action) ? null : roleRefusal(role, action);
}
