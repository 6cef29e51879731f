import type { MiddlewareHandler } from "hono";
import { createDb } from "../db/client";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../lib/types";
import { findAuthUserById } from "../routes/users/users.queries";
import { cachedAuthUser, rememberAuthUser } from "../services/auth-user-cache";
import { jwtSecret, userIdFromClaims, verifyToken } from "../services/tokens";

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

function unauthorized(message: string, tokenSent: boolean): ApiError {
  return new ApiError(401, message, undefined, {
    "WWW-Authenticate": tokenSent ? INVALID_TOKEN_CHALLENGE : CHALLENGE,
  });
}

/** `Bearer <token>`: scheme case-insensitive, exactly two whitespace-separated parts. */
export function bearerToken(header: string | undefined): string | null {
  const parts = header?.trim().split(/\s+/) ?? [];
  if (parts.length !== 2 || parts[0]?.toLowerCase() !== "bearer") return null;
  return parts[1] || null;
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

  const claims = await verifyToken(jwtSecret(c.env), token);
  if (!claims) throw unauthorized("Invalid or expired token", true);
  const userId = userIdFromClaims(claims);
  if (userId === null) throw unauthorized("Unauthorized: User ID not found in JWT payload", true);

  const user = cachedAuthUser(userId) ?? (await findAuthUserById(createDb(c.env.DB), userId));
  if (!user) throw unauthorized("User no longer exists", true);
  c.set("user", rememberAuthUser(user));
  await next();
};
