import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, okContent, PUBLIC } from "../../http/openapi-helpers";
import { LoggedOutSchema, LoginBody, LoginResultSchema, RefreshBody, RegisterBody } from "./auth.schemas";

const tags = ["Auth"];

export const register = createRoute({
  operationId: "register",
  method: "post",
  path: "/api/register",
  tags,
  summary: "Create an account and sign in",
  description:
    "Creates a `user` (never an admin) and answers with a token and a refresh token, like login. " +
    "Rate limited per client IP and username (429 with `Retry-After`).",
  ...PUBLIC,
  request: { body: jsonBody(RegisterBody) },
  responses: {
    201: okContent(LoginResultSchema, "The new user, a token and a refresh token"),
    ...errorResponses(400, 409, 413, 429, 500, 503),
  },
});

export const login = createRoute({
  operationId: "login",
  method: "post",
  path: "/api/login",
  tags,
  summary: "Exchange username and password for a token",
  description:
    "Starts a session (see `GET /api/auth/sessions`). An unknown username and a wrong password both " +
    "answer 401 `Invalid username or password`, in the same time. Rate limited per client IP and " +
    "username (429 with `Retry-After`).",
  ...PUBLIC,
  request: { body: jsonBody(LoginBody) },
  responses: {
    201: okContent(LoginResultSchema, "A token and a refresh token for the user"),
    ...errorResponses(400, 401, 413, 429, 500, 503),
  },
});

export const refresh = createRoute({
  operationId: "refreshSession",
  method: "post",
  path: "/api/auth/refresh",
  tags,
  summary: "Trade a refresh token for a new token and refresh token",
  description:
    "The refresh token is spent: the answer carries its successor. Spending it again within 30 s " +
    "(two tabs at once) answers the same successor; later, it ends the whole session (401), since a " +
    "copy of it is in someone else's hands. Sessions end 30 days after sign-in, or after 7 days " +
    "without a refresh.",
  ...PUBLIC,
  request: { body: jsonBody(RefreshBody) },
  responses: {
    200: okContent(LoginResultSchema, "A new token and refresh token of the same session"),
    ...errorResponses(400, 401, 413, 500),
  },
});

export const logout = createRoute({
  operationId: "logout",
  method: "post",
  path: "/api/auth/logout",
  tags,
  summary: "End the current session",
  description:
    "Ends the session of the token in `Authorization`: that token and the session's refresh token " +
    "stop working at once. A token without a session (issued before sessions existed) is a 400.",
  responses: {
    200: okContent(LoggedOutSchema, "The session that ended"),
    ...errorResponses(400, 401, 403),
  },
});

export type RegisterRoute = typeof register;
export type LoginRoute = typeof login;
export type RefreshRoute = typeof refresh;
export type LogoutRoute = typeof logout;
