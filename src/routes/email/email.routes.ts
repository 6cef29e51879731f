import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, okContent, PUBLIC } from "../../http/openapi-helpers";
import { EmailConfirmBody, EmailConfirmedSchema, VerificationSentSchema } from "./email.schemas";

const tags = ["Auth"];

export const confirm = createRoute({
  operationId: "confirmEmail",
  method: "post",
  path: "/api/auth/email/confirm",
  tags,
  summary: "Use an e-mail verification or e-mail change link",
  description:
    "The token of a link e-mailed after registration (or `POST /api/auth/email/verify`) marks the account's " +
    "address verified; the token of a link sent to a new address (`POST /api/users/{id}` with `email`) " +
    "moves the account to it, verified, and ends every reset link sent to the old one. Each link works " +
    'once, for 24 hours. A used, expired, unknown or outdated token is 400 "Invalid or expired link"; ' +
    "409 when another account took the new address meanwhile.",
  ...PUBLIC,
  request: { body: jsonBody(EmailConfirmBody) },
  responses: {
    200: okContent(EmailConfirmedSchema, "The address is verified (and, for a change, now the account's)"),
    ...errorResponses(400, 409, 413),
  },
});

export const resend = createRoute({
  operationId: "sendEmailVerification",
  method: "post",
  path: "/api/auth/email/verify",
  tags,
  summary: "E-mail a new verification link to your address",
  description:
    "Sends a link that proves your account's address (valid 24 hours, once). 409 when the address is " +
    "verified already; 429 while 3 links are still usable. Needs a sign-in, not an API key.",
  responses: {
    202: okContent(VerificationSentSchema, "A link is on its way"),
    ...errorResponses(401, 403, 404, 409, 429),
  },
});

export type ConfirmRoute = typeof confirm;
export type ResendRoute = typeof resend;
