import type { Db } from "../db/client";
import { openDatabases } from "../db/databases";
import { bearerToken } from "./bearer";
import type { AuthUser, Credential, McpCredential } from "./credentials";
import { isApiKey } from "./api-keys/api-keys";
import { cachedLookup, rememberLookup } from "./auth-user-cache";
import { findAuthUserById, findSessionHolder, type SessionHolder } from "./auth-user.queries";
import { authenticateApiKey, authenticateApiKeyId } from "./api-keys/key-auth";
import { OAUTH_SCOPES } from "./oauth/oauth-resource";
import { jwtSecret, userIdFromClaims, verifyToken, type TokenClaims } from "./tokens";

export type AuthFailure =
  | "missing"
  | "malformed"
  | "invalid_token"
  | "no_user_id"
  | "user_gone"
  | "token_revoked"
  | "session_ended"
  | "invalid_key"
  | "key_revoked"
  | "key_expired";

export type AuthResult<C extends McpCredential = Credential> =
  | { ok: true; user: AuthUser; credential: C }
  | { ok: false; reason: AuthFailure };

/** What a client is told for each failure; the same words on /api, /mcp and /agents. */
export const AUTH_FAILURE_MESSAGES: Record<AuthFailure, string> = {
  missing: "Missing bearer token",
  malformed: "Malformed Authorization header, expected: Bearer <token>",
  invalid_token: "Invalid or expired token",
  no_user_id: "Unauthorized: User ID not found in JWT payload",
  user_gone: "User no longer exists",
  token_revoked: "Token revoked: sign in again",
  session_ended: "Session ended: sign in again",
  invalid_key: "Invalid API key",
  key_revoked: "API key revoked",
  key_expired: "API key expired",
};

const fail = (reason: AuthFailure) => ({ ok: false, reason }) as const;

/**
 * The one authentication path for /api, /mcp and /agents. An API key (`wsk_…`) must be known, not
 * revoked and not expired. A JWT must be one we signed and still valid, for a user who still exists;
 * then its credential decides: a session's token lives as long as its session, a token without one
 * (issued before sessions existed) as long as the user's token version. A missing or weak JWT_SECRET
 * throws (fail closed). Other isolates see a change within the lookup cache's window
 * (src/auth/auth-user-cache.ts). /api passes its request's D1 session.
 */
export async function authenticate(env: Env, token: string, db?: Db): Promise<AuthResult> {
  if (isApiKey(token)) return authenticateApiKey(db ?? openDatabases(env).directory, token);
  const claims = await verifyToken(jwtSecret(env), token);
  if (!claims) return fail("invalid_token");
  return authenticateClaims(env, claims, db);
}

/** authenticate() for an `Authorization` header, as /api receives it. */
export async function authenticateHeader(env: Env, header: string | undefined, db?: Db): Promise<AuthResult> {
  if (!header) return fail("missing");
  const token = bearerToken(header);
  if (!token) return fail("malformed");
  return authenticate(env, token, db);
}

// `<user id>:<grant id>:<secret>`, the OAuth library's shape; JWTs and API keys hold no colon.
const isOAuthToken = (token: string) => token.split(":").length === 3;

/**
 * /mcp's check: what authenticateHeader() accepts, and an OAuth access token this Worker issued for
 * the resource of `issuer` (null where OAuth cannot run), still unrevoked, of a user who still exists
 * and has not recovered the account (reset the password) since the grant's consent.
 * A token issued for another resource is invalid here, as every OAuth token is on /api and /agents.
 */
export async function authenticateForResource(
  env: Env,
  header: string | undefined,
  issuer: string | null,
): Promise<AuthResult<McpCredential>> {
  if (!header) return fail("missing");
  const token = bearerToken(header);
  if (!token) return fail("malformed");
  if (!isOAuthToken(token)) return authenticate(env, token);
  if (!issuer) return fail("invalid_token");
  // The OAuth library loads with the first OAuth token, not with the app.
  const { validateAccessToken } = await import("./oauth/oauth-server");
  const grant = await validateAccessToken(env, issuer, token);
  if (!grant) return fail("invalid_token");
  const user = await authUser(openDatabases(env).directory, Number(grant.userId));
  if (!user) return fail("user_gone");
  // Consented before the account's last recovery (password reset): ended, whatever KV still holds.
  if (grant.grantVersion !== user.grantVersion) return fail("invalid_token");
  const scopes = OAUTH_SCOPES.filter((scope) => grant.scope.includes(scope));
  return {
    ok: true,
    user,
    credential: { kind: "oauth", grantId: grant.grantId, clientId: grant.clientId, scopes },
  };
}

async function sessionHolder(db: Db, userId: number, sessionId: string): Promise<SessionHolder | null> {
  const cacheKey = `session:${sessionId}`;
  const known = cachedLookup<SessionHolder>(cacheKey);
  if (known?.user.id === userId) return known;
  const holder = await findSessionHolder(db, userId, sessionId);
  return holder ? rememberLookup(cacheKey, userId, holder) : null;
}

async function authUser(db: Db, userId: number): Promise<AuthUser | null> {
  const cacheKey = `user:${userId}`;
  const user = cachedLookup<AuthUser>(cacheKey) ?? (await findAuthUserById(db, userId));
  return user ? rememberLookup(cacheKey, userId, user) : null;
}

/**
 * The checks of authenticate() for claims whose signature is already verified: a login token's, or
 * a connect ticket's (src/auth/tickets.ts), so both end at the same checks of the same credential.
 */
export async function authenticateClaims(
  env: Env,
  claims: TokenClaims,
  db: Db = openDatabases(env).directory,
  now = new Date(),
): Promise<AuthResult> {
  const userId = userIdFromClaims(claims);
  if (userId === null) return fail("no_user_id");
  if (claims.key !== undefined) {
    const verdict = await authenticateApiKeyId(db, claims.key, userId, now);
    // Keys are deleted only with their user; a revoked or expired one says so.
    return verdict.ok || verdict.reason !== "invalid_key" ? verdict : fail("user_gone");
  }
  if (claims.sid !== undefined) {
    const holder = await sessionHolder(db, userId, claims.sid);
    if (!holder) return fail("user_gone");
    const ended = holder.sessionExpiresAt === null || Date.parse(holder.sessionExpiresAt) <= now.getTime();
    if (ended) return fail("session_ended");
    return { ok: true, user: holder.user, credential: { kind: "session", sessionId: claims.sid } };
  }
  const user = await authUser(db, userId);
  if (!user) return fail("user_gone");
  if (claims.ver !== user.tokenVersion) return fail("token_revoked");
  return { ok: true, user, credential: { kind: "token" } };
}
