import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { startSession, type SessionTokens } from "./sessions";
import { issueToken, TOKEN_TTL_SECONDS, type TokenIdentity } from "../tokens";

// What register, login and refresh answer: the login result (userId, username, token) plus the
// session's refresh token.

const USER_AGENT_MAX = 256;

/** A one-hour JWT of `session` and its refresh token, in the login result's shape. */
export async function sessionResult(
  secret: string,
  user: Omit<TokenIdentity, "sessionId" | "apiKeyId">,
  session: SessionTokens,
  nowSeconds = Math.floor(Date.now() / 1000),
) {
  const token = await issueToken(secret, { ...user, sessionId: session.sessionId }, nowSeconds);
  return {
    userId: user.id,
    username: user.username,
    token,
    expiresAt: new Date((nowSeconds + TOKEN_TTL_SECONDS) * 1000).toISOString(),
    refreshToken: session.refreshToken,
  };
}

/**
 * Signs `user` in: a new session (recording the client's User-Agent) and its first tokens, with `audit`
 * (the account trail's entry) in the session's batch.
 */
export async function signIn(
  db: Db,
  secret: string,
  user: Omit<TokenIdentity, "sessionId" | "apiKeyId">,
  headers: Headers,
  audit?: BatchItem<"sqlite">,
) {
  const userAgent = headers.get("User-Agent")?.slice(0, USER_AGENT_MAX) ?? null;
  return sessionResult(secret, user, await startSession(db, user.id, userAgent, audit));
}
