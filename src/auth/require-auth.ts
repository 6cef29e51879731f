import type { MiddlewareHandler } from "hono";
import { AUTH_FAILURE_MESSAGES, authenticate } from "./authenticate";
import { bearerToken } from "../http/bearer";
import { ApiError } from "../http/errors";
import type { AppEnv } from "../http/types";

/** The only place that decides which /api paths skip the token check. */
const PUBLIC_PATHS = new Set(["/api/login", "/api/register"]);
// Exactly one non-empty segment after /api/download/ (a `/` inside a key arrives as %2F).
const PUBLIC_DOWNLOAD = /^\/api\/download\/[^/]+$/;

export function isPublicApiPath(path: string): boolean {
  return PUBLIC_PATHS.has(path) || PUBLIC_DOWNLOAD.test(path);
}

// A fixed realm: never the request URL, which may carry a query string.
const CHALLENGE = 'Bearer realm="api"';
const INVALID_TOKEN_CHALLENGE = `${CHALLENGE}, error="invalid_token"`;

/** 401 in the envelope with the gate's challenge; also for a user deleted after the gate. */
export function unauthorized(message: string, tokenSent: boolean): ApiError {
  return new ApiError(401, message, undefined, {
    "WWW-Authenticate": tokenSent ? INVALID_TOKEN_CHALLENGE : CHALLENGE,
  });
}

/**
 * The /api/* gate: a valid HS256 token whose user still exists, set as `c.get("user")`.
 * Tokens in the query string are ignored here on purpose.
 */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (isPublicApiPath(c.req.path)) return next();

  const header = c.req.header("Authorization");
  if (!header) throw unauthorized("Missing bearer token", false);
  const token = bearerToken(header);
  if (!token) throw unauthorized("Malformed Authorization header, expected: Bearer <token>", true);

  const result = await authenticate(c.env, token, c.get("db"));
  if (!result.ok) throw unauthorized(AUTH_FAILURE_MESSAGES[result.reason], true);
  c.set("user", result.user);
  await next();
};
