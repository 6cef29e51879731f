import type { MiddlewareHandler } from "hono";
import { foreignKeyViolation } from "../db/errors";
import { forgetAuthUser } from "./auth-user-cache";
import { AUTH_FAILURE_MESSAGES, authenticateHeader, type AuthFailure } from "./authenticate";
import { ApiError } from "../http/errors";
import type { AppEnv } from "../http/types";

/** The only place that decides which /api paths skip the token check. */
const PUBLIC_PATHS = new Set(["/api/login", "/api/register"]);
// Exactly one non-empty segment after /api/download/ (a `/` inside a key arrives as %2F), or after
// /api/links/ (a share link's token).
const PUBLIC_DOWNLOAD = /^\/api\/(?:download|links)\/[^/]+$/;

export function isPublicApiPath(path: string): boolean {
  return PUBLIC_PATHS.has(path) || PUBLIC_DOWNLOAD.test(path);
}

/**
 * 401 in the envelope with a challenge for `realm` (fixed: never the request URL, which may carry a
 * query string); also for a user deleted after the gate.
 */
export function unauthorized(
  failure: AuthFailure,
  realm = "api",
  headers: Record<string, string> = {},
): ApiError {
  const challenge =
    failure === "missing" ? `Bearer realm="${realm}"` : `Bearer realm="${realm}", error="invalid_token"`;
  return new ApiError(401, AUTH_FAILURE_MESSAGES[failure], undefined, {
    ...headers,
    "WWW-Authenticate": challenge,
  });
}

/**
 * A write that failed on a FOREIGN KEY because its user was deleted after the gate let the request
 * in is answered as the gate would answer now; any other error is returned as it is.
 */
export function userGoneOr(err: unknown, userId: number): unknown {
  return foreignKeyViolation(err) ? userGone(userId) : err;
}

/** The 401 for a user deleted after the gate let their request in. */
export function userGone(userId: number): ApiError {
  forgetAuthUser(userId);
  return unauthorized("user_gone");
}

/**
 * The /api/* gate: a valid HS256 token whose user still exists, set as `c.get("user")`.
 * Tokens in the query string are ignored here on purpose.
 */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (isPublicApiPath(c.req.path)) return next();
  const result = await authenticateHeader(c.env, c.req.header("Authorization"), c.get("db"));
  if (!result.ok) throw unauthorized(result.reason);
  c.set("user", result.user);
  await next();
};
