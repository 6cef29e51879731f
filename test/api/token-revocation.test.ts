// docs/security.md J15 and G16: a password change, a role change and a delete end every token issued
// before them, on /api and on /agents; a fresh login works at once (same second included).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import app from "../../src/app";
import { logIn, signUp, type SignedUpUser } from "../helpers/auth";
import { makeAdmin } from "../helpers/db";
import { api, BASE, expectError, expectData } from "../helpers/http";
import { freshIp } from "../helpers/client-ip";
import { decodePart } from "../helpers/tokens";
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

async function expectRevoked(user: SignedUpUser, token: string) {
  expectError(await api(`/api/users/${user.userId}`, { token }), 401, "Token revoked: sign in again");
  expectError(await api("/api/todos", { token }), 401);
  expect(await agentStatus(token)).toBe(401);
}

async function expectValid(user: SignedUpUser, token: string) {
  expect(await apiStatus(user, token)).toBe(200);
  expect(await agentStatus(token)).toBe(200);
}

describe("password change", () => {
  it("your own: every earlier token ends; the new password signs in at once", async () => {
    const user = await signUp();
    const second = await logIn(user.username, user.password);
    await expectValid(user, second);
    const res = await update(
      user.userId,
      { password: "a brand new password", currentPassword: user.password },
      user.token,
    );
    expect(expectData(res, 200, UserViewSchema)).not.toHaveProperty("token");
    expect(res.text).not.toMatch(/tokenVersion/);
    for (const token of [user.token, second]) await expectRevoked(user, token);
    // Within the same second as the change: a version, not a timestamp, decides.
    const fresh = await logIn(user.username, "a brand new password");
    const before = decodePart(user.token.split(".")[1]!);
    const after = decodePart(fresh.split(".")[1]!);
    expect(after).toMatchObject({ sub: before.sub, data: before.data, ver: before.ver + 1 });
    expect(after.exp - after.iat).toBe(3600);
    await expectValid(user, fresh);
  });

  it("an admin's reset ends the user's tokens, not the admin's", async () => {
    const user = await signUp();
    expect((await update(user.userId, { password: "reset by the admin" }, admin.token)).status).toBe(200);
    await expectRevoked(user, user.token);
    await expectValid(admin, admin.token);
    await expectValid(user, await logIn(user.username, "reset by the admin"));
  });
});

describe("role change", () => {
  it("promotion and demotion end the user's tokens; a same-role write does not", async () => {
    const user = await signUp();
    expect((await update(user.userId, { role: "user" }, admin.token)).status).toBe(200);
    await expectValid(user, user.token);

    expect((await update(user.userId, { role: "admin" }, admin.token)).status).toBe(200);
    await expectRevoked(user, user.token);
    const asAdmin = await logIn(user.username, user.password);
    expect((await api("/api/users", { token: asAdmin })).status).toBe(200);

    expect((await update(user.userId, { role: "user" }, admin.token)).status).toBe(200);
    await expectRevoked(user, asAdmin);
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
