import { createRoute } from "@hono/zod-openapi";
import { CursorQuery } from "../../core/paging";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import { orgRoute } from "./org-access";
import {
  CreateOrgBody,
  DeletedOrgSchema,
  OrgIdParams,
  OrgPageSchema,
  OrgSchema,
  RenameOrgBody,
  TransferBody,
} from "./orgs.schemas";

const tags = ["Teams"];

export const create = createRoute({
  operationId: "createOrg",
  method: "post",
  path: "/api/orgs",
  tags,
  summary: "Create a team",
  description:
    "You become its owner. One account belongs to at most `ORG_MAX_TEAMS_PER_USER` teams (20 by default; 409). " +
    "Needs a sign-in.",
  request: { body: jsonBody(CreateOrgBody) },
  responses: {
    201: okContent(OrgSchema, "The new team, with you as owner"),
    ...errorResponses(400, 401, 403, 409, 413),
  },
});

export const list = createRoute({
  operationId: "listOrgs",
  method: "get",
  path: "/api/orgs",
  tags,
  summary: "List your teams, with your role in each",
  description: "Keyset paging by team id: pass `nextCursor` back as `cursor`. Needs a sign-in.",
  request: { query: CursorQuery },
  responses: {
    200: okContent(OrgPageSchema, "One page of your teams"),
    ...errorResponses(400, 401, 403),
  },
});

export const getOne = orgRoute("org:read", {
  operationId: "getOrg",
  method: "get",
  path: "/api/orgs/{orgId}",
  tags,
  summary: "Read a team",
  description: "The team with your role and the owner's standing ownership offer, if any.",
  request: { params: OrgIdParams },
  responses: {
    200: okContent(OrgSchema, "The team"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const rename = orgRoute("org:rename", {
  operationId: "renameOrg",
  method: "post",
  path: "/api/orgs/{orgId}",
  tags,
  summary: "Rename a team",
  description: "Recorded in the team's audit trail.",
  request: { params: OrgIdParams, body: jsonBody(RenameOrgBody) },
  responses: {
    200: okContent(OrgSchema, "The renamed team"),
    ...errorResponses(400, 401, 403, 404, 413),
  },
});

export const remove = orgRoute("org:delete", {
  operationId: "deleteOrg",
  method: "post",
  path: "/api/orgs/{orgId}/delete",
  tags,
  summary: "Delete a team and everything it owns",
  description:
    "Erases the team, its memberships, invitations and audit trail at once, and its files (R2 objects, records, " +
    "share links, uploads in progress), and answers how many of each went (`filesPending`: some objects are " +
    "left to the hourly cron). Members are refused at their next request (404).",
  request: { params: OrgIdParams },
  responses: {
    200: okContent(DeletedOrgSchema, "What was erased"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const offerTransfer = orgRoute("org:transfer", {
  operationId: "offerOrgTransfer",
  method: "post",
  path: "/api/orgs/{orgId}/transfer",
  tags,
  summary: "Offer ownership to a member",
  description:
    "Ownership moves only when that member accepts, within 24 hours; a new offer replaces the last. " +
    "To someone who is not a member, 404 `Member not found`; to yourself, 409.",
  request: { params: OrgIdParams, body: jsonBody(TransferBody) },
  responses: {
    200: okContent(OrgSchema, "The team with the offer"),
    ...errorResponses(400, 401, 403, 404, 409, 413),
  },
});

export const acceptTransfer = orgRoute("org:read", {
  operationId: "acceptOrgTransfer",
  method: "post",
  path: "/api/orgs/{orgId}/transfer/accept",
  tags,
  summary: "Accept the ownership offered to you",
  description:
    "Only the member named in a standing offer (anyone else, or after 24 hours, 409): in one batch you " +
    "become owner and the previous owner admin.",
  request: { params: OrgIdParams },
  responses: {
    200: okContent(OrgSchema, "The team, now yours"),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

export const cancelTransfer = orgRoute("org:transfer", {
  operationId: "cancelOrgTransfer",
  method: "post",
  path: "/api/orgs/{orgId}/transfer/cancel",
  tags,
  summary: "Withdraw the ownership offer",
  description: "Without a standing offer, 409.",
  request: { params: OrgIdParams },
  responses: {
    200: okContent(OrgSchema, "The team without an offer"),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

export type CreateRoute = typeof create;
export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type RenameRoute = typeof rename;
export type RemoveRoute = typeof remove;
export type OfferTransferRoute = typeof offerTransfer;
export type AcceptTransferRoute = typeof acceptTransfer;
export type CancelTransferRoute = typeof cancelTransfer;
