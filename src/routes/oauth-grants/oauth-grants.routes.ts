import { createRoute } from "@hono/zod-openapi";
import { errorResponses, okContent } from "../../http/openapi-helpers";
import { GrantIdParams, OAuthGrantListSchema, OAuthGrantSchema } from "./oauth-grants.schemas";

const tags = ["Connected apps"];
const SIGN_IN_ONLY = "Needs a sign-in, not an API key.";

export const list = createRoute({
  operationId: "listOAuthGrants",
  method: "get",
  path: "/api/oauth/grants",
  tags,
  summary: "The AI clients you connected",
  description: `Apps you allowed through OAuth to use \`/mcp\`, newest first (at most 100). ${SIGN_IN_ONLY}`,
  responses: {
    200: okContent(OAuthGrantListSchema, "Your connected apps"),
    ...errorResponses(401, 403),
  },
});

export const revoke = createRoute({
  operationId: "revokeOAuthGrant",
  method: "post",
  path: "/api/oauth/grants/{id}/revoke",
  tags,
  summary: "Disconnect an app",
  description:
    "Its access and refresh tokens stop working: 401 on its next call to `/mcp`. Another user's grant, or " +
    `one already revoked, is 404. ${SIGN_IN_ONLY}`,
  request: { params: GrantIdParams },
  responses: {
    200: okContent(OAuthGrantSchema, "The grant that ended"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export type ListRoute = typeof list;
export type RevokeRoute = typeof revoke;
