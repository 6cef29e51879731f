import { CursorQuery } from "../../core/paging";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import { orgRoute } from "../orgs/org-access";
import {
  MemberPageSchema,
  MemberParams,
  MemberSchema,
  OrgIdParams,
  RemovedMemberSchema,
  SetRoleBody,
} from "../orgs/orgs.schemas";

const tags = ["Teams"];

export const list = orgRoute("members:read", {
  operationId: "listOrgMembers",
  method: "get",
  path: "/api/orgs/{orgId}/members",
  tags,
  summary: "List a team's members",
  description: "With username, name, role and when each joined; keyset paging by user id.",
  request: { params: OrgIdParams, query: CursorQuery },
  responses: {
    200: okContent(MemberPageSchema, "One page of members"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const setRole = orgRoute("members:manage", {
  operationId: "setOrgMemberRole",
  method: "post",
  path: "/api/orgs/{orgId}/members/{userId}",
  tags,
  summary: "Change a member's role",
  description:
    "Between member and viewer: admins and the owner. To or from admin: the owner only (403 for an admin). " +
    "The owner's role changes only by transfer (409). A removed or unknown member is 404 `Member not found`; " +
    "the change applies from their next request.",
  request: { params: MemberParams, body: jsonBody(SetRoleBody) },
  responses: {
    200: okContent(MemberSchema, "The member with the new role"),
    ...errorResponses(400, 401, 403, 404, 409, 413),
  },
});

export const remove = orgRoute("org:read", {
  operationId: "removeOrgMember",
  method: "post",
  path: "/api/orgs/{orgId}/members/{userId}/delete",
  tags,
  summary: "Remove a member, or leave",
  description:
    "Your own id: you leave (any role but owner, who must transfer ownership first: 409). Someone else: " +
    "members and viewers by an admin or the owner, admins by the owner only (403 otherwise). They are " +
    "refused at their next request and their open sockets close.",
  request: { params: MemberParams },
  responses: {
    200: okContent(RemovedMemberSchema, "Who went"),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

export type ListRoute = typeof list;
export type SetRoleRoute = typeof setRole;
export type RemoveRoute = typeof remove;
