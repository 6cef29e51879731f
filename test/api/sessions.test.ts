// docs/security.md S1-S7: sessions and their refresh tokens. Refresh rotates (the old token is spent),
// reuse after the grace window ends the whole session, two tabs refreshing at once share the
// successor, sessions end on logout, on revoke and on expiry, and their tokens end with them.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signIn, signUp } from "../helpers/auth";
import {
  backdateRotation,
  countRows,
  createKey,
  credentialRows,
  hashOf,
  isoAgo,
  refresh,
  sessionOf,
  setSessionTimes,
} from "../helpers/credentials";
import { api, expectData, expectError } from "../helpers/http";
import { claimsFor, craftToken, decodePart, HS256_HEADER } from "../helpers/tokens";
import { LoggedOutSchema, LoginResultSchema } from "../../src/routes/auth/auth.schemas";
import { RevokedSessionSchema, SessionListSchema } from "../../src/routes/sessions/sessions.schemas";
import { MeSchema } from "../../src/routes/users/users.schemas";
import { MAX_SESSIONS, REUSE_GRACE_SECONDS, SESSION_IDLE_SECONDS } from "../../src/auth/sessions/sessions";

afterEach(() => vi.restoreAllMocks());

const SESSION_ENDED = "Session ended: sign in again";
const me = (token: string) => api("/api/me", { token });
const logout = (token: string) => api("/api/auth/logout", { method: "POST", token });
const revoke = (id: string, token: string) =>
  api(`/api/auth/sessions/${id}/revoke`, { method: "POST", token });
const listSessions = (token: string) => api("/api/auth/sessions", { token });

describe("POST /api/auth/refresh", () => {
  it("S5: answers a new token and refresh token of the same session; only hashes are stored", async () => {
    const user = await signUp();
    const next = expectData(await refresh(user.refreshToken), 200, LoginResultSchema);
    expect(next).toMatchObject({ userId: user.userId, username: user.username });
    expect(next.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(next.refreshToken).not.toBe(user.refreshToken);
    const claims = decodePart(next.token.split(".")[1]!);
    expect(claims.sid).toBe(sessionOf(user.token));
    expect(claims.exp - claims.iat).toBe(3600);
    expect(Date.parse(next.expiresAt) / 1000).toBe(claims.exp);
    expect(expectData(await me(next.token), 200, MeSchema).credential).toEqual({
      kind: "session",
      sessionId: claims.sid,
    });

    const rows = await env.DB.prepare("SELECT * FROM refresh_tokens_table WHERE sessionId = ? ORDER BY rowid")
      .bind(claims.sid)
      .all<{ tokenHash: string; rotatedAt: string | null }>();
    expect(rows.results.map((row) => row.tokenHash)).toEqual([
      await hashOf(user.refreshToken),
      await hashOf(next.refreshToken),
    ]);
    expect(rows.results[0]!.rotatedAt).not.toBeNull();
    expect(rows.results[1]!.rotatedAt).toBeNull();
    expect(JSON.stringify(rows.results)).not.toContain(next.refreshToken);
  });

  it("S1: a spent token reused after the grace window ends the whole session", async () => {
    const user = await signUp();
    const other = await signIn(user.username, user.password);
    const next = expectData(await refresh(user.refreshToken), 200, LoginResultSchema);
    await backdateRotation(user.refreshToken, REUSE_GRACE_SECONDS + 1);
    const warn = vi.spyOn(console, "warn");

    expectError(await refresh(user.refreshToken), 401, /already used: the session has ended/);
    // The family: the successor, and every token of the session, end with it.
    expectError(await refresh(next.refreshToken), 401, "Invalid refresh token");
    expectError(await me(next.token), 401, SESSION_ENDED);
    expectError(await me(user.token), 401, SESSION_ENDED);
    expect(await countRows("sessions_table", "id", sessionOf(user.token))).toBe(0);
    // Another session of the same user is not part of the family.
    expect((await me(other.token)).status).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);

    // L7: logged, without the token.
    const logged = warn.mock.calls.map((call) => String(call[0])).join("\n");
    expect(logged).toContain("auth_refresh_reused");
    expect(logged).not.toContain(user.refreshToken);
  });

  it("S2: two tabs refreshing with the same token at once both get the same successor", async () => {
    const user = await signUp();
    const [a, b] = await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken)]);
    const first = expectData(a, 200, LoginResultSchema);
    expect(expectData(b, 200, LoginResultSchema).refreshToken).toBe(first.refreshToken);
    // A third, later but within the window: the same successor again, and the session goes on.
    expect(expectData(await refresh(user.refreshToken), 200, LoginResultSchema).refreshToken).toBe(
      first.refreshToken,
    );
    expect((await refresh(first.refreshToken)).status).toBe(200);
  });

  it("S2: within the window a late tab gets the session's current token, past a tab that refreshed twice", async () => {
    const user = await signUp();
    const r1 = expectData(await refresh(user.refreshToken), 200, LoginResultSchema).refreshToken;
    const r2 = expectData(await refresh(r1), 200, LoginResultSchema).refreshToken;
    const late = expectData(await refresh(user.refreshToken), 200, LoginResultSchema);
    expect(late.refreshToken).toBe(r2);
    expect((await me(late.token)).status).toBe(200);
  });

  it("S3: a session ends 30 days after sign-in, or after 7 days without a refresh", async () => {
    const absolute = await signUp();
    await setSessionTimes(sessionOf(absolute.token), { expiresAt: isoAgo(1) });
    expectError(await me(absolute.token), 401, SESSION_ENDED);
    expectError(await refresh(absolute.refreshToken), 401, "Session expired: sign in again");
    expect(await countRows("sessions_table", "id", sessionOf(absolute.token))).toBe(0);

    const idle = await signUp();
    await setSessionTimes(sessionOf(idle.token), { lastUsedAt: isoAgo(SESSION_IDLE_SECONDS + 1) });
    expectError(await refresh(idle.refreshToken), 401, "Session expired: sign in again");

    const active = await signUp();
    await setSessionTimes(sessionOf(active.token), { lastUsedAt: isoAgo(SESSION_IDLE_SECONDS - 60) });
    expect((await refresh(active.refreshToken)).status).toBe(200);
  });

  it("answers 401 for an unknown token and 400 for a malformed one", async () => {
    expectError(await refresh("A".repeat(43)), 401, "Invalid refresh token");
    for (const refreshToken of ["", "short", "A".repeat(44), `${"A".repeat(42)}=`]) {
      expectError(await refresh(refreshToken), 400, /^Invalid json: refreshToken/);
    }
  });
});

describe("POST /api/auth/logout", () => {
  it("ends the current session only: its token and refresh token stop working", async () => {
    const user = await signUp();
    const other = await signIn(user.username, user.password);
    const res = await logout(user.token);
    expect(expectData(res, 200, LoggedOutSchema).sessionId).toBe(sessionOf(user.token));
    expectError(await me(user.token), 401, SESSION_ENDED);
    expectError(await refresh(user.refreshToken), 401, "Invalid refresh token");
    expectError(await logout(user.token), 401, SESSION_ENDED);
    expect((await me(other.token)).status).toBe(200);
  });

  it("a token without a session is a 400; an API key is a 403", async () => {
    const user = await signUp();
    const sessionless = await craftToken(HS256_HEADER, { ...claimsFor(user.userId, user.username), ver: 0 });
    expectError(await logout(sessionless), 400, "This token has no session to end");
    const { key } = await createKey(user.token, ["todos:read"]);
    expectError(await logout(key), 403, /needs a signed-in session/);
    expect((await me(user.token)).status).toBe(200);
  });
});

describe("GET /api/auth/sessions and POST /api/auth/sessions/:id/revoke", () => {
  it("lists your sessions with when, how recently and from what, marking the current one", async () => {
    const user = await signUp();
    const phone = await signIn(user.username, user.password, { "User-Agent": "PhoneApp/2.1" });
    const stranger = await signUp();
    const { items } = expectData(await listSessions(phone.token), 200, SessionListSchema);
    expect(items).toHaveLength(2);
    const [latest, earlier] = items;
    expect(latest).toMatchObject({ id: sessionOf(phone.token), userAgent: "PhoneApp/2.1", current: true });
    expect(earlier).toMatchObject({ id: sessionOf(user.token), current: false });
    for (const session of items) {
      expect(Date.parse(session.expiresAt) - Date.parse(session.createdAt)).toBe(30 * 24 * 3600 * 1000);
      expect(session.lastUsedAt >= session.createdAt).toBe(true);
    }
    expect(JSON.stringify(items)).not.toContain(sessionOf(stranger.token));
  });

  it("S4: ends one session at once; another user's or an unknown one is 404 and changes nothing", async () => {
    const user = await signUp();
    const laptop = await signIn(user.username, user.password);
    const stranger = await signUp();

    expectError(await revoke(sessionOf(stranger.token), user.token), 404, "Session not found");
    expect((await me(stranger.token)).status).toBe(200);
    expectError(await revoke(crypto.randomUUID(), user.token), 404);

    const res = await revoke(sessionOf(laptop.token), user.token);
    expect(expectData(res, 200, RevokedSessionSchema).id).toBe(sessionOf(laptop.token));
    expectError(await me(laptop.token), 401, SESSION_ENDED);
    expectError(await refresh(laptop.refreshToken), 401);
    expect((await me(user.token)).status).toBe(200);
    expectError(await revoke(sessionOf(laptop.token), user.token), 404);
  });

  it("S7: keeps at most 50 sessions: a new sign-in ends the least recently used", async () => {
    const user = await signUp();
    // The sign-up's session is the oldest; fill up to the cap with sessions used after it.
    const insert = env.DB.prepare(
      "INSERT INTO sessions_table (id, userId, lastUsedAt, expiresAt) VALUES (?, ?, ?, ?)",
    );
    await setSessionTimes(sessionOf(user.token), { lastUsedAt: isoAgo(3600) });
    await env.DB.batch(
      Array.from({ length: MAX_SESSIONS - 1 }, (_, i) =>
        insert.bind(crypto.randomUUID(), user.userId, isoAgo(60 + i), isoAgo(-86_400)),
      ),
    );
    const fresh = await signIn(user.username, user.password);
    expect(await countRows("sessions_table", "userId", user.userId)).toBe(MAX_SESSIONS);
    expectError(await me(user.token), 401, SESSION_ENDED);
    expect((await me(fresh.token)).status).toBe(200);
  });
});

describe("GET /api/me", () => {
  it("answers your full profile and the credential of the request", async () => {
    const user = await signUp();
    const data = expectData(await me(user.token), 200, MeSchema);
    expect(data.user).toMatchObject({ id: user.userId, username: user.username, email: user.email });
    expect(data.credential).toEqual({ kind: "session", sessionId: sessionOf(user.token) });
    expect(JSON.stringify(data)).not.toMatch(/passwordHash|tokenVersion|grantVersion|usernameKey/);
  });
});

describe("the hourly cron", () => {
  it("removes ended sessions (with their refresh tokens) and spent or expired reset links; keeps the rest", async () => {
    const [ended, idle, live] = [await signUp(), await signUp(), await signUp()];
    await setSessionTimes(sessionOf(ended.token), { expiresAt: isoAgo(1) });
    await setSessionTimes(sessionOf(idle.token), { lastUsedAt: isoAgo(SESSION_IDLE_SECONDS + 1) });
    const link = env.DB.prepare(
      "INSERT INTO password_resets_table (tokenHash, userId, expiresAt, usedAt) VALUES (?, ?, ?, ?)",
    );
    await link.bind(await hashOf(crypto.randomUUID()), live.userId, isoAgo(1), null).run();
    await link.bind(await hashOf(crypto.randomUUID()), live.userId, isoAgo(-600), isoAgo(5)).run();
    await link.bind(await hashOf(crypto.randomUUID()), live.userId, isoAgo(-600), null).run();

    await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env);
    expect((await credentialRows(ended.userId)).sessions).toBe(0);
    expect((await credentialRows(idle.userId)).sessions).toBe(0);
    expect(await credentialRows(live.userId)).toEqual({
      sessions: 1,
      refreshTokens: 1,
      apiKeys: 0,
      passwordResets: 1,
    });
    expect((await me(live.token)).status).toBe(200);
  });
});

describe("deleting a user", () => {
  it("removes their sessions, refresh tokens, API keys and reset links (FK cascade)", async () => {
    const user = await signUp();
    await refresh(user.refreshToken);
    await createKey(user.token, ["todos:read"]);
    await env.DB.prepare("INSERT INTO password_resets_table (tokenHash, userId, expiresAt) VALUES (?, ?, ?)")
      .bind(await hashOf(crypto.randomUUID()), user.userId, isoAgo(-600))
      .run();
    expect(await credentialRows(user.userId)).toEqual({
      sessions: 1,
      refreshTokens: 2,
      apiKeys: 1,
      passwordResets: 1,
    });
    const sessionId = sessionOf(user.token);
    expect(
      (await api(`/api/users/${user.userId}/delete`, { method: "POST", token: user.token })).status,
    ).toBe(200);
    expect(await credentialRows(user.userId)).toEqual({
      sessions: 0,
      refreshTokens: 0,
      apiKeys: 0,
      passwordResets: 0,
    });
    expect(await countRows("refresh_tokens_table", "sessionId", sessionId)).toBe(0);
  });
});
