import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, okContent, PUBLIC } from "../../http/openapi-helpers";
import { IdParams, PageQuery } from "../../core/paging";
import { LoginResultSchema } from "../auth/auth.schemas";
import {
  PasskeyPageSchema,
  PasskeySchema,
  PasskeySignInBody,
  RegisterPasskeyBody,
  RegistrationOptionsBody,
  RegistrationOptionsSchema,
  RenamePasskeyBody,
  SignInOptionsSchema,
} from "./passkeys.schemas";

const tags = ["Passkeys"];
const SIGN_IN_ONLY = "Needs a sign-in, not an API key.";

export const registrationOptions = createRoute({
  operationId: "passkeyRegistrationOptions",
  method: "post",
  path: "/api/passkeys/registration/options",
  tags,
  summary: "Start adding a passkey",
  description:
    "Checks your password (403 when wrong, limited like a login: 429), then answers the options for " +
    "`navigator.credentials.create()` with a challenge valid 5 minutes, once, for you only. At most 20 " +
    `passkeys (409). ${SIGN_IN_ONLY}`,
  request: { body: jsonBody(RegistrationOptionsBody) },
  responses: {
    200: okContent(RegistrationOptionsSchema, "Options for the browser"),
    ...errorResponses(400, 401, 403, 409, 413, 429, 500, 503),
  },
});

export const register = createRoute({
  operationId: "registerPasskey",
  method: "post",
  path: "/api/passkeys",
  tags,
  summary: "Add a passkey",
  description:
    "Verifies what the browser created from the options (origin, RP id, the challenge, user " +
    "verification) and keeps the passkey. A challenge that expired, was used, or was issued to someone " +
    "else is 400 (`... start again`), and a response that fails a check 400 `Passkey not accepted`; a " +
    `passkey registered before is 409. ${SIGN_IN_ONLY}`,
  request: { body: jsonBody(RegisterPasskeyBody) },
  responses: {
    201: okContent(PasskeySchema, "The new passkey"),
    ...errorResponses(400, 401, 403, 409, 413, 500),
  },
});

export const list = createRoute({
  operationId: "listPasskeys",
  method: "get",
  path: "/api/passkeys",
  tags,
  summary: "List your passkeys, newest first",
  description: `Name, device type, backup state, when added and last used. ${SIGN_IN_ONLY}`,
  request: { query: PageQuery },
  responses: {
    200: okContent(PasskeyPageSchema, "One page of passkeys"),
    ...errorResponses(400, 401, 403),
  },
});

export const rename = createRoute({
  operationId: "renamePasskey",
  method: "post",
  path: "/api/passkeys/{id}",
  tags,
  summary: "Rename a passkey",
  description: `Another user's passkey is 404. ${SIGN_IN_ONLY}`,
  request: { params: IdParams, body: jsonBody(RenamePasskeyBody) },
  responses: {
    200: okContent(PasskeySchema, "The renamed passkey"),
    ...errorResponses(400, 401, 403, 404, 413),
  },
});

export const remove = createRoute({
  operationId: "deletePasskey",
  method: "post",
  path: "/api/passkeys/{id}/delete",
  tags,
  summary: "Delete a passkey",
  description:
    "It signs nobody in from now on (its sign-ins answer 401). Another user's passkey is 404. " +
    SIGN_IN_ONLY,
  request: { params: IdParams },
  responses: {
    200: okContent(PasskeySchema, "The deleted passkey"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const signInOptions = createRoute({
  operationId: "passkeySignInOptions",
  method: "post",
  path: "/api/auth/passkey/options",
  tags,
  summary: "Start signing in with a passkey",
  description:
    "Options for `navigator.credentials.get()`: no username needed, the authenticator offers the " +
    "passkeys it holds for this site. The challenge is signed, valid 5 minutes and once; nothing is stored.",
  ...PUBLIC,
  responses: {
    200: okContent(SignInOptionsSchema, "Options for the browser"),
    // It reads no body; one sent anyway must still be JSON and under 1 MiB.
    ...errorResponses(400, 413, 500),
  },
});

export const signIn = createRoute({
  operationId: "passkeySignIn",
  method: "post",
  path: "/api/auth/passkey/verify",
  tags,
  summary: "Sign in with a passkey",
  description:
    "Starts a session exactly like `POST /api/login` (refresh, logout, sessions list). Refused with 401, " +
    "nothing changed: an unknown or deleted passkey, a challenge expired or used before (a replay), a " +
    "wrong origin or RP id, a bad signature, a signature counter that went back. Rate limited per " +
    "client IP (with password logins) and per client IP and passkey (429 with `Retry-After`).",
  ...PUBLIC,
  request: { body: jsonBody(PasskeySignInBody) },
  responses: {
    201: okContent(LoginResultSchema, "A token and a refresh token for the passkey's user"),
    ...errorResponses(400, 401, 413, 429, 500, 503),
  },
});

export type RegistrationOptionsRoute = typeof registrationOptions;
export type RegisterRoute = typeof register;
export type ListRoute = typeof list;
export type RenameRoute = typeof rename;
export type RemoveRoute = typeof remove;
export type SignInOptionsRoute = typeof signInOptions;
export type SignInRoute = typeof signIn;
