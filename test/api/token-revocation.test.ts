// docs/security.md J15, G16 and S6: your own password change ends every other session and keeps the one
// that made it; an admin's reset, a role change and a delete end every session; tokens without a
// session end by the user's token version. On /api and on /agents; a fresh login works at once.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../../src/app";
import { logIn, signIn, signUp, type SignedUpUser } from "../helpers/auth";
import { makeAdmin } from "../helpers/db";
import { api, BASE, expectError, expectData } from "../helpers/http";
import { freshIp } from "../helpers/client-ip";
import { claimsFor, craftToken, decodePart, HS256_HEADER } from "../helpers/tokens";
import { LoginResultSchema } from "../../src/routes/auth/auth.schemas";
import { UserViewSchema } from "../../src/routes/users/users.schemas";

let admin: SignedUpUser;

beforeAll(async () => {
  admin = await signUp();
  await makeAdmin(admin.userId);
});

const update = (id: number, json: unknown, token: string) =>
  api(`/api/users/${id}`, { method: "POST", json, token });

/** A protected /api read with `token`. */
const apiStatus = async (user: SignedUpUser, token: string) =>
  (await api(`/api/users/${user.userId}`, { token })).status;

/** An /agents request with AGENTS_REQUIRE_AUTH on and `token` in the Authorization header. */
async function agentStatus(token: string): Promise<number> {
  const ctx = createExecutionContext();
  const request = new Request(`${BASE}/agents/counter-agent/revocation-${crypto.randomUUID()}`, {
    headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": freshIp() },
  });
  const res = await app.fetch(request, { ...env, AGENTS_REQUIRE_AUTH: "true" }, ctx);
  await waitOnExecutionContext(ctx);
  return res.status;
}

const SESSION_ENDED = "Session ended: sign in again";
const TOKEN_REVOKED = "Token revoked: sign in again";

async function expectRevoked(user: SignedUpUser, token: string, message = SESSION_ENDED) {
  expectError(await api(`/api/users/${user.userId}`, { token }), 401, message);
  expectError(await api("/api/todos", { token }), 401);
  expect(await agentStatus(token)).toBe(401);
}

async function expectValid(user: SignedUpUser, token: string) {
  expect(await apiStatus(user, token)).toBe(200);
  expect(await agentStatus(token)).toBe(200);
}

const refresh = (refreshToken: string) =>
  api("/api/auth/refresh", { method: "POST", json: { refreshToken } });

/** A token as issued before sessions existed: no `sid`, so the user's token version decides. */
const sessionless = (user: SignedUpUser) =>
  craftToken(HS256_HEADER, { ...claimsFor(user.userId, user.username), ver: 0 });

describe("password change", () => {
  it("S6: your own: every other session and sessionless token ends, the session that changed it stays", async () => {
    const user = await signUp();
    const second = await signIn(user.username, user.password);
    const legacy = await sessionless(user);
    for (const token of [user.token, second.token, legacy]) await expectValid(user, token);
    const res = await update(
      user.userId,
      { password: "a brand new password", currentPassword: user.password },
      user.token,
    );
    expect(expectData(res, 200, UserViewSchema)).not.toHaveProperty("token");
    expect(res.text).not.toMatch(/tokenVersion|grantVersion/);

    await expectValid(user, user.token);
    expect(expectData(await refresh(user.refreshToken), 200, LoginResultSchema).userId).toBe(user.userId);
    await expectRevoked(user, second.token);
    expectError(await refresh(second.refreshToken), 401, "Invalid refresh token");
    await expectRevoked(user, legacy, TOKEN_REVOKED);

    // Within the same second as the change: a version, not a timestamp, decides.
    const fresh = await logIn(user.username, "a brand new password");
    const before = decodePart(user.token.split(".")[1]!);
    const after = decodePart(fresh.split(".")[1]!);
    expect(after).toMatchObject({ sub: before.sub, data: before.data, ver: before.ver + 1 });
    expect(after.sid).not.toBe(before.sid);
    expect(after.exp - after.iat).toBe(3600);
    await expectValid(user, fresh);
  });

  it("an admin's reset ends every session of the user, not the admin's", async () => {
    const user = await signUp();
    const second = await signIn(user.username, user.password);
    expect((await update(user.userId, { password: "reset by the admin" }, admin.token)).status).toBe(200);
    for (const token of [user.token, second.token]) await expectRevoked(user, token);
    for (const token of [user.refreshToken, second.refreshToken])
      expect((await refresh(token)).status).toBe(401);
    await expectValid(admin, admin.token);
    await expectValid(user, await logIn(user.username, "reset by the admin"));
  });
});

describe("role change", () => {
  it("promotion and demotion end the user's sessions; a same-role write does not", async () => {
    const user = await signUp();
    expect((await update(user.userId, { role: "user" }, admin.token)).status).toBe(200);
    await expectValid(user, user.token);

    expect((await update(user.userId, { role: "admin" }, admin.token)).status).toBe(200);
    await expectRevoked(user, user.token);
    expect((await refresh(user.refreshToken)).status).toBe(401);
    const asAdmin = await logIn(user.username, user.password);
    expect((await api("/api/users", { token: asAdmin })).status).toBe(200);

    expect((await update(user.userId, { role: "user" }, admin.token)).status).toBe(200);
    await expectRevoked(user, asAdmin);
  });

  it("a role change also revokes tokens without a session", async () => {
    const user = await signUp();
    const legacy = await sessionless(user);
    await expectValid(user, legacy);
    expect((await update(user.userId, { role: "admin" }, admin.token)).status).toBe(200);
    await expectRevoked(user, legacy, TOKEN_REVOKED);
  });

  it("profile changes (name, e-mail) keep tokens valid", async () => {
    const user = await signUp();
    expect((await update(user.userId, { name: "Renamed" }, user.token)).status).toBe(200);
    await expectValid(user, user.token);
  });
});

describe("delete", () => {
  it("J15/G16: a deleted user's tokens are 401 on /api and /agents", async () => {
    const user = await signUp();
    const second = await logIn(user.username, user.password);
    expect(
      (await api(`/api/users/${user.userId}/delete`, { method: "POST", token: user.token })).status,
    ).toBe(200);
    for (const token of [user.token, second]) {
      expectError(await api("/api/todos", { token }), 401, "User no longer exists");
      expect(await agentStatus(token)).toBe(401);
    }
  });
});
