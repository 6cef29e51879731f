import { env } from "cloudflare:workers";
import { knownPassword } from "./auth";
import { api } from "./http";
import { sha256 } from "./storage";
import { decodePart } from "./tokens";

// Sessions, refresh tokens, API keys and reset links as D1 holds them, and clocks moved by moving
// their timestamps back (the service compares them with the time of each request).

export const hashOf = (secret: string) => sha256(new TextEncoder().encode(secret));

/** The `sid` claim of a session's JWT. */
export const sessionOf = (token: string): string => decodePart(token.split(".")[1]!).sid;

export const isoAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

export const refresh = (refreshToken: string) =>
  api("/api/auth/refresh", { method: "POST", json: { refreshToken } });

/** Spent `seconds` ago: as if the refresh that spent this token happened then. */
export async function backdateRotation(refreshToken: string, seconds: number) {
  await env.DB.prepare("UPDATE refresh_tokens_table SET rotatedAt = ? WHERE tokenHash = ?")
    .bind(isoAgo(seconds), await hashOf(refreshToken))
    .run();
}

export async function setSessionTimes(sessionId: string, times: { lastUsedAt?: string; expiresAt?: string }) {
  for (const [column, value] of Object.entries(times)) {
    await env.DB.prepare(`UPDATE sessions_table SET ${column} = ? WHERE id = ?`).bind(value, sessionId).run();
  }
}

export async function countRows(table: string, column: string, value: string | number): Promise<number> {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`)
    .bind(value)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Every credential row a user owns, by table. */
export async function credentialRows(userId: number) {
  const sessions = await env.DB.prepare("SELECT id FROM sessions_table WHERE userId = ?").bind(userId).all();
  let refreshTokens = 0;
  for (const { id } of sessions.results as { id: string }[]) {
    refreshTokens += await countRows("refresh_tokens_table", "sessionId", id);
  }
  return {
    sessions: sessions.results.length,
    refreshTokens,
    apiKeys: await countRows("api_keys_table", "userId", userId),
    passwordResets: await countRows("password_resets_table", "userId", userId),
  };
}

/**
 * POST /api/keys as `token`'s user; answers the key's secret. A key with a write scope proves the
 * password the user signed up or in with through the auth helpers.
 */
export async function createKey(token: string, scopes: string[], extra: Record<string, unknown> = {}) {
  const password = knownPassword(Number(decodePart(token.split(".")[1]!).sub));
  const proof =
    scopes.some((scope) => scope.endsWith(":write")) && password ? { currentPassword: password } : {};
  const res = await api<{ data: { id: number; key: string } }>("/api/keys", {
    method: "POST",
    token,
    json: { name: "test key", scopes, ...proof, ...extra },
  });
  if (res.status !== 201) throw new Error(`createKey: ${res.status} ${res.text}`);
  return res.body.data;
}
