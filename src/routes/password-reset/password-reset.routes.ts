import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, okContent, PUBLIC } from "../../http/openapi-helpers";
import {
  ResetConfirmBody,
  ResetDoneSchema,
  ResetRequestBody,
  ResetRequestedSchema,
} from "./password-reset.schemas";

const tags = ["Auth"];

export const request = createRoute({
  operationId: "requestPasswordReset",
  method: "post",
  path: "/api/auth/password-reset",
  tags,
  summary: "E-mail a password-reset link",
  description:
    "Answers 202 with the same body, in the same time, whether or not an account uses the address; " +
    "for one that does, an e-mail with a link valid 30 minutes and once follows (at most 3 usable links " +
    "per account). Rate limited per client IP and per address (429 with `Retry-After`).",
  ...PUBLIC,
  request: { body: jsonBody(ResetRequestBody) },
  responses: {
    202: okContent(ResetRequestedSchema, "Accepted; an e-mail follows if the address is known"),
    ...errorResponses(400, 413, 429, 503),
  },
});

export const confirm = createRoute({
  operationId: "confirmPasswordReset",
  method: "post",
  path: "/api/auth/password-reset/confirm",
  tags,
  summary: "Set a new password with a reset link's token",
  description:
    "Same password rules as registration. A reset is an account recovery: every session, every earlier " +
    "token, every API key and every OAuth grant (connected app) of the account ends, and every other reset " +
    "link with them; the answer and an e-mail to the account's address say what ended. A used, expired or " +
    'unknown token is 400 "Invalid or expired reset link".',
  ...PUBLIC,
  request: { body: jsonBody(ResetConfirmBody) },
  responses: {
    200: okContent(ResetDoneSchema, "The password is set: sign in with it"),
    ...errorResponses(400, 413, 500),
  },
});

export type RequestRoute = typeof request;
export type ConfirmRoute = typeof confirm;
