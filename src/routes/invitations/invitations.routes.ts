import { createRoute } from "@hono/zod-openapi";
import { CursorQuery } from "../../core/paging";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import { orgRoute } from "../orgs/org-access";
import { OrgIdParams, OrgSchema } from "../orgs/orgs.schemas";
import {
  AcceptInvitationBody,
  CreateInvitationBody,
  InvitationIdParams,
  InvitationPageSchema,
  InvitationParams,
  InvitationSchema,
  MyInvitationListSchema,
} from "./invitations.schemas";

const tags = ["Teams"];

export const create = orgRoute("invitations:create", {
  operationId: "createOrgInvitation",
  method: "post",
  path: "/api/orgs/{orgId}/invitations",
  tags,
  summary: "Invite someone by e-mail",
  description:
    "E-mails a link carrying a one-time `token=` (stored hashed, never answered), valid " +
    "`ORG_INVITE_TTL_SECONDS` (7 days by default). Inviting as admin is the owner's (403 for an admin). " +
    "One pending invitation per address per team (409; an expired, revoked or used one never blocks); " +
    "to a member's address 409; past the team's member or pending-invitation limit 409, past " +
    "`ORG_INVITES_PER_HOUR` 429.",
  request: { params: OrgIdParams, body: jsonBody(CreateInvitationBody) },
  responses: {
    201: okContent(InvitationSchema, "The pending invitation"),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
});

export const list = orgRoute("invitations:read", {
  operationId: "listOrgInvitations",
  method: "get",
  path: "/api/orgs/{orgId}/invitations",
  tags,
  summary: "List a team's invitations",
  description:
    "Every invitation with its status (pending, accepted, revoked, declined, expired), oldest first.",
  request: { params: OrgIdParams, query: CursorQuery },
  responses: {
    200: okContent(InvitationPageSchema, "One page of invitations"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const revoke = orgRoute("invitations:revoke", {
  operationId: "revokeOrgInvitation",
  method: "post",
  path: "/api/orgs/{orgId}/invitations/{id}/revoke",
  tags,
  summary: "Revoke a pending invitation",
  description: "Its link stops working at once. One no longer pending is 409; another team's is 404.",
  request: { params: InvitationParams },
  responses: {
    200: okContent(InvitationSchema, "The revoked invitation"),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

export const listMine = createRoute({
  operationId: "listMyInvitations",
  method: "get",
  path: "/api/invitations",
  tags,
  summary: "List the pending invitations to your e-mail address",
  description:
    "Only once your address is verified (an empty list until then: anyone can type any address at sign-up). " +
    "Accepting still takes the e-mailed token. Needs a sign-in.",
  responses: {
    200: okContent(MyInvitationListSchema, "The pending invitations"),
    ...errorResponses(401, 403),
  },
});

export const accept = createRoute({
  operationId: "acceptOrgInvitation",
  method: "post",
  path: "/api/invitations/accept",
  tags,
  summary: "Accept an invitation with its e-mailed token",
  description:
    "Only for the signed-in account whose e-mail address is the one invited (403 otherwise); the token " +
    "proves that mailbox, so the address need not be verified first. Once: a used, revoked, declined or " +
    "expired invitation is 409, an unknown token 404. Past the team's member limit or your team limit 409. " +
    "Concurrent accepts make one membership. Needs a sign-in.",
  request: { body: jsonBody(AcceptInvitationBody) },
  responses: {
    200: okContent(OrgSchema, "The team you joined, with your role"),
    ...errorResponses(400, 401, 403, 404, 409, 413),
  },
});

export const decline = createRoute({
  operationId: "declineOrgInvitation",
  method: "post",
  path: "/api/invitations/{id}/decline",
  tags,
  summary: "Decline a pending invitation to your address",
  description:
    "As listed by `GET /api/invitations` (a verified address): one not pending or not to your address is " +
    "404. Needs a sign-in.",
  request: { params: InvitationIdParams },
  responses: {
    200: okContent(InvitationSchema, "The declined invitation"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export type CreateRoute = typeof create;
export type ListRoute = typeof list;
export type RevokeRoute = typeof revoke;
export type ListMineRoute = typeof listMine;
export type AcceptRoute = typeof accept;
export type DeclineRoute = typeof decline;
