import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, okContent, PUBLIC } from "../../http/openapi-helpers";
import { LoginBody, LoginResultSchema, RegisterBody } from "./auth.schemas";

const tags = ["Auth"];

export const register = createRoute({
  operationId: "register",
  method: "post",
  path: "/api/register",
  tags,
  summary: "Create an account and sign in",
  description:
    "Creates a `user` (never an admin) and answers with a token, like login. " +
    "Rate limited per client IP and username (429 with `Retry-After`).",
  ...PUBLIC,
  request: { body: jsonBody(RegisterBody) },
  responses: {
    201: okContent(LoginResultSchema, "The new user and a token"),
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
    "An unknown username and a wrong password both answer 401 `Invalid username or password`, " +
    "in the same time. Rate limited per client IP and username (429 with `Retry-After`).",
  ...PUBLIC,
  request: { body: jsonBody(LoginBody) },
  responses: {
    201: okContent(LoginResultSchema, "A token for the user"),
    ...errorResponses(400, 401, 413, 429, 500, 503),
  },
});

export type RegisterRoute = typeof register;
export type LoginRoute = typeof login;
