import { createDb } from "../db/client";
import type { AuthUser } from "../lib/types";
import { jwtSecret, userIdFromClaims, verifyToken, type TokenClaims } from "../services/tokens";
import { cachedAuthUser, rememberAuthUser } from "./auth-user-cache";
import { findAuthUserById } from "./auth-user.queries";

export type AuthFailure = "invalid_token" | "no_user_id" | "user_gone";

export type AuthResult = { ok: true; user: AuthUser } | { ok: false; reason: AuthFailure };

/** What a client is told for each failure; the same words on /api and /agents. */
export const AUTH_FAILURE_MESSAGES: Record<AuthFailure, string> = {
  invalid_token: "Invalid or expired token",
  no_user_id: "Unauthorized: User ID not found in JWT payload",
  user_gone: "User no longer exists",
};

/**
 * The one authentication path for /api and /agents: a token we signed that is still valid, whose
 * user still exists. A missing or weak JWT_SECRET throws (fail closed).
 */
export async function authenticate(env: Env, token: string): Promise<AuthResult> {
  const claims = await verifyToken(jwtSecret(env), token);
  if (!claims) return { ok: false, reason: "invalid_token" };
  return authenticateClaims(env, claims);
}

/**
 * The user checks of authenticate() for claims whose signature is already verified: a login token's,
 * or a connect ticket's (src/services/agent-tickets.ts), so both end at the same user checks.
 */
export async function authenticateClaims(env: Env, claims: TokenClaims): Promise<AuthResult> {
  const userId = userIdFromClaims(claims);
  if (userId === null) return { ok: false, reason: "no_user_id" };
  const user = cachedAuthUser(userId) ?? (await findAuthUserById(createDb(env.DB), userId));
  if (!user) return { ok: false, reason: "user_gone" };
  return { ok: true, user: rememberAuthUser(user) };
}
