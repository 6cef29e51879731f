import { orgOwner, userOwner } from "../../core/owner";
import { dataShardNames, LEGACY_SHARD } from "../../db/shard-names";
import { accepted, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedRouteContext } from "../../http/types";
import type { MovePlan } from "../../shards/move-plan";
import * as queries from "./admin-workspaces.queries";
import type { GetOneRoute, ListRoute, MoveRoute, ShardsRoute } from "./admin-workspaces.routes";
import type { MoveProgress } from "./admin-workspaces.schemas";

type Ctx = AuthedRouteContext<ListRoute | GetOneRoute | MoveRoute | ShardsRoute>;

function requireAdmin(c: Ctx) {
  if (c.get("user").role !== "admin") throw new ApiError(403, "Admin role required");
}

const moverOf = (env: Env, workspaceId: number) =>
  env.ShardMover.get(env.ShardMover.idFromName(`workspace-${workspaceId}`));

function progressOf(plan: MovePlan): MoveProgress {
  const { phase, source, target, written, deleted, attempts, lastError, failure } = plan;
  const { startedAt, fencedAt, switchedAt, finishedAt } = plan;
  const fenceMs = fencedAt && switchedAt ? Date.parse(switchedAt) - Date.parse(fencedAt) : null;
  const times = { startedAt, fencedAt, switchedAt, finishedAt, fenceMs };
  return {
    phase,
    source,
    target,
    written,
    deleted,
    attempts,
    lastError,
    failure,
    ...times,
    checks: Object.values(plan.checks),
  };
}

async function view(env: Env, row: queries.WorkspaceRow) {
  const plan = await moverOf(env, row.id).progress();
  return { ...row, move: plan ? progressOf(plan) : null };
}

export async function list(c: AuthedRouteContext<ListRoute>) {
  requireAdmin(c);
  const rows = await queries.findWorkspacesOf(c.var.dbs.directory, c.req.valid("query"));
  return ok(c, { items: await Promise.all(rows.map((row) => view(c.env, row))) });
}

async function workspaceOr404(c: Ctx, id: number) {
  const row = await queries.findWorkspaceById(c.var.dbs.directory, id);
  if (!row) throw new ApiError(404, "Workspace not found");
  return row;
}

export async function getOne(c: AuthedRouteContext<GetOneRoute>) {
  requireAdmin(c);
  return ok(c, await view(c.env, await workspaceOr404(c, c.req.valid("param").id)));
}

export async function move(c: AuthedRouteContext<MoveRoute>) {
  requireAdmin(c);
  const { shard } = c.req.valid("json");
  // New workspaces never go to the directory: a move goes to a data database.
  if (!dataShardNames(c.env).includes(shard)) throw new ApiError(400, `Unknown shard: ${shard.slice(0, 64)}`);
  const row = await workspaceOr404(c, c.req.valid("param").id);
  if (row.shard === shard) throw new ApiError(409, `The workspace is already on ${shard}`);
  if (row.state === "moving") throw new ApiError(409, "The workspace is moving already");
  const owner = row.userId !== null ? userOwner(row.userId) : orgOwner(row.orgId!);
  const started = await moverOf(c.env, row.id).start({
    workspaceId: row.id,
    owner,
    source: row.shard,
    target: shard,
  });
  if (started.status !== "started") throw new ApiError(409, "The workspace is moving already");
  c.get("logger").info("workspace_move_started", { workspaceId: row.id, source: row.shard, target: shard });
  return accepted(c, await view(c.env, await workspaceOr404(c, row.id)));
}

export async function shards(c: AuthedRouteContext<ShardsRoute>) {
  requireAdmin(c);
  const counts = new Map(
    (await queries.workspacesPerShard(c.var.dbs.directory)).map((row) => [row.shard, row]),
  );
  const names = [LEGACY_SHARD, ...dataShardNames(c.env)];
  const items = await Promise.all(
    names.map(async (shard) => ({
      shard,
      workspaces: counts.get(shard)?.workspaces ?? 0,
      moving: Number(counts.get(shard)?.moving ?? 0),
      ...(await queries.rowsOfShard(c.var.dbs.shard(shard))),
    })),
  );
  return ok(c, { items });
}
