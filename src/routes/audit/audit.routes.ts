import { createRoute } from "@hono/zod-openapi";
import { errorResponses, okContent } from "../../http/openapi-helpers";
import { orgRoute } from "../orgs/org-access";
import { OrgIdParams } from "../orgs/orgs.schemas";
import { AuditPageSchema, AuditQuery } from "./audit.schemas";

const tags = ["Audit"];
const PAGING =
  "Newest first, keyset paging (`nextCursor` back as `cursor`); `action` and `actorId` filter. Entries older " +
  "than `ORG_AUDIT_RETENTION_DAYS` (365 by default) are purged hourly.";

export const orgAudit = orgRoute("audit:read", {
  operationId: "listOrgAudit",
  method: "get",
  path: "/api/orgs/{orgId}/audit",
  tags,
  summary: "A team's audit trail",
  description:
    "Every change to the team, its members and invitations, written in the same batch as the change: when, " +
    "who, through which door (rest, mcp, agent, operator) and credential, IP, request id, action, target " +
    `and a small detail. A deleted account's entries keep the action but not the name. ${PAGING}`,
  request: { params: OrgIdParams, query: AuditQuery },
  responses: {
    200: okContent(AuditPageSchema, "One page of the trail"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const myAudit = createRoute({
  operationId: "listMyAudit",
  method: "get",
  path: "/api/me/audit",
  tags,
  summary: "Your account's own audit trail",
  description:
    "Sign-ins, passkeys added and removed, API keys created and revoked, password and e-mail changes, " +
    `sessions ended. ${PAGING} Needs a sign-in.`,
  request: { query: AuditQuery },
  responses: {
    200: okContent(AuditPageSchema, "One page of the trail"),
    ...errorResponses(400, 401, 403),
  },
});

export type OrgAuditRoute = typeof orgAudit;
export type MyAuditRoute = typeof myAudit;
