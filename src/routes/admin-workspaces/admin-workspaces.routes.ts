import { createRoute } from "@hono/zod-openapi";
import { IdParams } from "../../core/paging";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import {
  MoveBody,
  ShardListSchema,
  WorkspaceListSchema,
  WorkspaceQuery,
  WorkspaceSchema,
} from "./admin-workspaces.schemas";

const tags = ["Admin"];
const ADMINS = "Admins only (403 otherwise; API keys are 403 too).";

export const list = createRoute({
  operationId: "findWorkspaces",
  method: "get",
  path: "/api/admin/workspaces",
  tags,
  summary: "Find a workspace by its owner (admins)",
  description: `The personal workspace of \`userId\`, or the workspace of team \`orgId\` where its data lives. Give exactly one of userId and orgId (400 otherwise). ${ADMINS}`,
  request: { query: WorkspaceQuery },
  responses: {
    200: okContent(WorkspaceListSchema, "The workspace, or none"),
    ...errorResponses(400, 401, 403),
  },
});

export const getOne = createRoute({
  operationId: "getWorkspace",
  method: "get",
  path: "/api/admin/workspaces/{id}",
  tags,
  summary: "Read a workspace and its move (admins)",
  description: `Its shard and state (\`moving\` until the target serves it), and the progress of its current or last move. ${ADMINS}`,
  request: { params: IdParams },
  responses: {
    200: okContent(WorkspaceSchema, "The workspace"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const move = createRoute({
  operationId: "moveWorkspace",
  method: "post",
  path: "/api/admin/workspaces/{id}/move",
  tags,
  summary: "Move a workspace to another data database (admins)",
  description:
    "Starts an online move: its rows are copied in chunks while it stays readable and writable; writes during " +
    "the short fence before the switch are answered 503 with Retry-After. Follow it with GET. An unknown shard " +
    "(one not bound, or `DB`, which takes no new workspaces) is 400; a workspace already there or moving is 409. " +
    ADMINS,
  request: { params: IdParams, body: jsonBody(MoveBody) },
  responses: {
    202: okContent(WorkspaceSchema, "The move has started"),
    ...errorResponses(400, 401, 403, 404, 409, 413),
  },
});

export const shards = createRoute({
  operationId: "listShards",
  method: "get",
  path: "/api/admin/shards",
  tags,
  summary: "The data databases and what they hold (admins)",
  description: `Each data database (and the directory while workspaces remain on it): its workspaces, todos and files. ${ADMINS}`,
  responses: {
    200: okContent(ShardListSchema, "Every shard"),
    ...errorResponses(401, 403),
  },
});

export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type MoveRoute = typeof move;
export type ShardsRoute = typeof shards;
