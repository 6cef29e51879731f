import { createRoute } from "@hono/zod-openapi";
import { errorResponses, okContent } from "../../http/openapi-helpers";
import { RevokedSessionSchema, SessionIdParams, SessionListSchema } from "./sessions.schemas";

const tags = ["Sessions"];

export const list = createRoute({
  operationId: "listSessions",
  method: "get",
  path: "/api/auth/sessions",
  tags,
  summary: "Where your account is signed in",
  description:
    "Your sessions, most recently used first (at most 50: a new sign-in ends the least recently used). " +
    "Needs a sign-in, not an API key.",
  responses: {
    200: okContent(SessionListSchema, "Your sessions"),
    ...errorResponses(401, 403),
  },
});

export const revoke = createRoute({
  operationId: "revokeSession",
  method: "post",
  path: "/api/auth/sessions/{id}/revoke",
  tags,
  summary: "End one of your sessions",
  description:
    "Its token and refresh token stop working at once (other Worker isolates within 2 s). " +
    "Another user's session, or one that has ended, is 404.",
  request: { params: SessionIdParams },
  responses: {
    200: okContent(RevokedSessionSchema, "The session that ended"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export type ListRoute = typeof list;
export type RevokeRoute = typeof revoke;
