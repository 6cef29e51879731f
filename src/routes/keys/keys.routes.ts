import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import { IdParams, PageQuery } from "../../core/paging";
import { IdempotencyHeaders, idempotent } from "../../http/idempotency";
import { ApiKeyPageSchema, ApiKeySchema, CreateApiKeyBody, CreatedApiKeySchema } from "./keys.schemas";

const tags = ["API keys"];
const SIGN_IN_ONLY = "Needs a sign-in, not an API key.";

export const create = createRoute({
  operationId: "createApiKey",
  method: "post",
  path: "/api/keys",
  tags,
  summary: "Create an API key",
  description:
    "For other Workers and scripts: the key acts as you, within its scopes, on `/api`, `/mcp` and " +
    "connect tickets (403 naming the missing scope). The secret is in this answer only. At most 50 " +
    "usable keys (409). A key with a `:write` scope needs `currentPassword` (403 when wrong, 429 after " +
    `too many tries). ${SIGN_IN_ONLY}`,
  // A replay answers the same secret again: only to the same user, who could create another anyway.
  middleware: [idempotent("POST /api/keys")] as const,
  request: { headers: IdempotencyHeaders, body: jsonBody(CreateApiKeyBody) },
  responses: {
    201: okContent(CreatedApiKeySchema, "The key, with its secret"),
    ...errorResponses(400, 401, 403, 409, 413, 422, 429, 503),
  },
});

export const list = createRoute({
  operationId: "listApiKeys",
  method: "get",
  path: "/api/keys",
  tags,
  summary: "List your API keys, newest first",
  description: `Revoked and expired keys included; never a secret. ${SIGN_IN_ONLY}`,
  request: { query: PageQuery },
  responses: {
    200: okContent(ApiKeyPageSchema, "One page of keys"),
    ...errorResponses(400, 401, 403),
  },
});

export const revoke = createRoute({
  operationId: "revokeApiKey",
  method: "post",
  path: "/api/keys/{id}/revoke",
  tags,
  summary: "Revoke an API key",
  description:
    "The key answers 401 from now on (other Worker isolates within 2 s). Revoking it again changes " +
    `nothing; another user's key is 404. ${SIGN_IN_ONLY}`,
  request: { params: IdParams },
  responses: {
    200: okContent(ApiKeySchema, "The revoked key"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export type CreateRoute = typeof create;
export type ListRoute = typeof list;
export type RevokeRoute = typeof revoke;
