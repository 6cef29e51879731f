import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import type { AuthUser } from "../credentials";
import { derivedKey } from "../../core/derived-keys";
import { base64url } from "../../core/base64url";
import { randomSecret, sha256Hex } from "../opaque-tokens";
import {
  deleteSession,
  findRefreshToken,
  insertSession,
  rotateRefreshToken,
  type RefreshTokenRow,
} from "./sessions.queries";

/** A session ends this long after sign-in, however it is used. */
export const SESSION_MAX_SECONDS = 30 * 24 * 3600;
/** ...or this long after its last refresh (a client in use refreshes at least hourly). */
export const SESSION_IDLE_SECONDS = 7 * 24 * 3600;
/**
 * A refresh token spent less than this long ago still answers (with the same successor): two tabs
 * that refresh at once must not end their own session. Later, its reuse means a copy is out there,
 * and the whole session ends.
 */
export const REUSE_GRACE_SECONDS = 30;
/** Sessions per user; signing in again ends the least recently used beyond it. */
export const MAX_SESSIONS = 50;
// Successors a grace-window request may walk past (a tab that refreshed twice meanwhile).
const MAX_GRACE_STEPS = 3;

export interface SessionTokens {
  sessionId: string;
  refreshToken: string;
}

export async function startSession(
  db: Db,
  userId: number,
  userAgent: string | null,
  audit?: BatchItem<"sqlite">,
  now = new Date(),
): Promise<SessionTokens> {
  const sessionId = crypto.randomUUID();
  const refreshToken = randomSecret();
  const session = {
    id: sessionId,
    userId,
    userAgent,
    createdAt: now.toISOString(),
    lastUsedAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_MAX_SECONDS * 1000).toISOString(),
  };
  await insertSession(db, session, await sha256Hex(refreshToken), MAX_SESSIONS, audit);
  return { sessionId, refreshToken };
}

export type RefreshVerdict = "rotate" | "grace" | "expired" | "reused";

/** What a presented refresh token gets, from its row and the clock alone. */
export function refreshVerdict(
  row: Pick<RefreshTokenRow, "rotatedAt" | "lastUsedAt" | "expiresAt">,
  now: Date,
): RefreshVerdict {
  const at = now.getTime();
  if (Date.parse(row.expiresAt) <= at) return "expired";
  if (Date.parse(row.lastUsedAt) + SESSION_IDLE_SECONDS * 1000 <= at) return "expired";
  if (row.rotatedAt === null) return "rotate";
  return at - Date.parse(row.rotatedAt) <= REUSE_GRACE_SECONDS * 1000 ? "grace" : "reused";
}

/**
 * The token that replaces `token`: an HMAC of it under a key derived from JWT_SECRET. Derived, not
 * random, so every request that spends the same token (two tabs, a retry) gets the same successor,
 * and the database still holds hashes only.
 */
async function successorOf(secret: string, token: string): Promise<string> {
  const key = await derivedKey(secret, "refresh-token-successor/v1");
  return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(token))));
}

export type RefreshOutcome =
  | { ok: true; user: AuthUser; session: SessionTokens }
  | { ok: false; reason: "unknown" | "expired" | "reused"; userId?: number; sessionId?: string };

/** Within the grace window: the session's current token, found by walking the successors. */
async function currentSuccessor(db: Db, secret: string, token: string, now: Date): Promise<string | null> {
  let successor = await successorOf(secret, token);
  for (let step = 0; step < MAX_GRACE_STEPS; step++) {
    const row = await findRefreshToken(db, await sha256Hex(successor));
    if (!row) return null;
    const verdict = refreshVerdict(row, now);
    if (verdict === "rotate") return successor;
    if (verdict !== "grace") return null;
    successor = await successorOf(secret, successor);
  }
  return null;
}

/**
 * Rotates a refresh token: the old one is spent, a successor is answered. A token spent longer than
 * REUSE_GRACE_SECONDS ago ends its whole session (its family), as does an expired session.
 */
export async function refreshSession(
  db: Db,
  secret: string,
  token: string,
  now = new Date(),
): Promise<RefreshOutcome> {
  const hash = await sha256Hex(token);
  const row = await findRefreshToken(db, hash);
  if (!row) return { ok: false, reason: "unknown" };
  const verdict = refreshVerdict(row, now);
  const ended = { userId: row.user.id, sessionId: row.sessionId };
  if (verdict === "expired" || verdict === "reused") {
    await deleteSession(db, row.sessionId);
    return { ok: false, reason: verdict, ...ended };
  }
  let refreshToken: string | null;
  if (verdict === "rotate") {
    refreshToken = await successorOf(secret, token);
    await rotateRefreshToken(db, row.sessionId, hash, await sha256Hex(refreshToken));
  } else {
    refreshToken = await currentSuccessor(db, secret, token, now);
    if (refreshToken === null) {
      await deleteSession(db, row.sessionId);
      return { ok: false, reason: "reused", ...ended };
    }
  }
  return { ok: true, user: row.user, session: { sessionId: row.sessionId, refreshToken } };
}
