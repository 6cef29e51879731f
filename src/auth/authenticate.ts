import { createDb, type Db } from "../db/client";
import { bearerToken } from "../http/bearer";
import type { AuthUser } from "../http/types";
import { jwtSecret, userIdFromClaims, verifyToken, type TokenClaims } from "./tokens";
import { cachedAuthUser, rememberAuthUser } from "./auth-user-cache";
import { findAuthUserById } from "./auth-user.queries";

export type AuthFailure =
  | "missing"
  | "malformed"
  | "invalid_token"
  | "no_user_id"
  | "user_gone"
  | "token_revoked";

export type AuthResult = { ok: true; user: AuthUser } | { ok: false; reason: AuthFailure };

/** What a client is told for each failure; the same words on /api and /agents. */
export const AUTH_FAILURE_MESSAGES: Record<AuthFailure, string> = {
  missing: "Missing bearer token",
  malformed: "Malformed Authorization header, expected: Bearer <token>",
  invalid_token: "Invalid or expired token",
  no_user_id: "Unauthorized: User ID not found in JWT payload",
  user_gone: "User no longer exists",
  token_revoked: "Token revoked: sign in again",
};

/**
 * The one authentication path for /api and /agents: a token we signed that is still valid, whose
 * user still exists and whose `ver` is the user's current token version (a password or role
 * change bumps it). A missing or weak JWT_SECRET throws (fail closed). Other isolates see a change
 * within the user cache's window (src/auth/auth-user-cache.ts). /api passes
 * its request's D1 session.
 */
export async function authenticate(env: Env, token: string, db?: Db): Promise<AuthResult> {
  const claims = await verifyToken(jwtSecret(env), token);
  if (!claims) return { ok: false, reason: "invalid_token" };
  return authenticateClaims(env, claims, db);
}

/** authenticate() for an `Authorization` header, as /api and /mcp receive it. */
export async function authenticateHeader(env: Env, header: string | undefined, db?: Db): Promise<AuthResult> {
  if (!header) return { ok: false, reason: "missing" };
  const token = bearerToken(header);
  if (!token) return { ok: false, reason: "malformed" };
  return authenticate(env, token, db);
}

/**
 * The user checks of authenticate() for claims whose signature is already verified: a login token's,
 * or a connect ticket's (src/auth/tickets.ts), so both end at the same user checks.
 */
export async function authenticateClaims(env: Env, claims: TokenClaims, db?: Db): Promise<AuthResult> {
  const userId = userIdFromClaims(claims);
  if (userId === null) return { ok: false, reason: "no_user_id" };
  const user = cachedAuthUser(userId) ?? (await findAuthUserById(db ?? createDb(env.DB), userId));
  if (!user) return { ok: false, reason: "user_gone" };
  rememberAuthUser(user);
  if (claims.ver !== user.tokenVersion) return { ok: false, reason: "token_revoked" };
  return { ok: true, user };
}
