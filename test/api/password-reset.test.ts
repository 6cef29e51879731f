// docs/security.md R1-R6: password reset. The request answers the same for known and unknown
// addresses without waiting for anything that depends on the address; a known one gets a one-time,
// 30-minute link through the EMAIL binding (miniflare's simulation, read back through
// test/workers/email-outbox.ts); confirming sets the password and ends every session and old token
// (R7: API keys, passkeys and OAuth grants too).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import app from "../../src/app";
import { logIn, signIn, signUp, type SignedUpUser } from "../helpers/auth";
import { countRows, createKey, hashOf, isoAgo, refresh } from "../helpers/credentials";
import { requestResetLink, resetTokenIn, accountMailTo } from "../helpers/email";
import { injected, withFaults } from "../helpers/faults";
import { api, BASE, expectData, expectError } from "../helpers/http";
import { freshIp } from "../helpers/client-ip";
import { inOneWindow } from "../helpers/limiter-window";
import { snapshotState, stateDiff } from "../helpers/state";
import { postJsonWithEnv } from "../helpers/storage";
import { claimsFor, craftToken, HS256_HEADER } from "../helpers/tokens";
import { rpc } from "../helpers/mcp";
import { addPasskey } from "../helpers/passkeys";
import { grantFor, RESOURCE, tokenRequest } from "../helpers/oauth";
import {
  ResetDoneSchema,
  ResetRequestedSchema,
} from "../../src/routes/password-reset/password-reset.schemas";

afterEach(() => vi.restoreAllMocks());

const REQUEST = "/api/auth/password-reset";
const CONFIRM = "/api/auth/password-reset/confirm";
const INVALID_LINK = "Invalid or expired reset link: ask for a new one";

/** POST JSON through app.fetch and wait for the work it left running (the e-mail). */
async function postAndSettle(path: string, body: unknown, overrides: Partial<Env> = {}) {
  const res = await postJsonWithEnv(path, body, overrides);
  return { ...res, body: JSON.parse(res.text) as unknown };
}

/** The connected apps GET /api/oauth/grants lists. */
const grantsOf = async (token: string) =>
  ((await api("/api/oauth/grants", { token })).body as { data: { items: unknown[] } }).data.items;

const confirm = (token: string, password: string) =>
  api(CONFIRM, { method: "POST", json: { token, password } });

/** Asks for a link for `user` (exactly one more e-mail) and answers its token. */
async function linkFor(user: SignedUpUser): Promise<string> {
  const before = (await accountMailTo(user.email)).length;
  const token = await requestResetLink(user.email);
  expect(await accountMailTo(user.email)).toHaveLength(before + 1);
  return token;
}

/** D1 that answers every query `ms` late. */
function slowDb(ms: number): D1Database {
  const later = <T>(work: () => Promise<T>) => new Promise<T>((r) => setTimeout(() => r(work()), ms));
  const slow = (statement: D1PreparedStatement): D1PreparedStatement =>
    withFaults(statement, {
      bind: (...values: unknown[]) => slow(statement.bind(...values)),
      all: () => later(() => statement.all()),
      raw: ((options?: { columnNames?: boolean }) => later(() => statement.raw(options as never))) as never,
      first: ((column?: string) => later(() => statement.first(column as never))) as never,
      run: () => later(() => statement.run()),
    });
  return withFaults(env.DB, { prepare: (query: string) => slow(env.DB.prepare(query)) });
}

describe("POST /api/auth/password-reset", () => {
  it("R1: the same 202 and body for a known and an unknown address; only the known one gets an e-mail", async () => {
    const user = await signUp();
    const unknown = `nobody-${crypto.randomUUID()}@example.test`;
    const [known, other] = [
      await postAndSettle(REQUEST, { email: user.email }),
      await postAndSettle(REQUEST, { email: unknown }),
    ];
    expect(expectData(known, 202, ResetRequestedSchema)).toEqual({
      message: "If an account uses this e-mail address, a reset link is on its way.",
    });
    expect(other.status).toBe(known.status);
    expect(other.text).toBe(known.text);
    expect(await accountMailTo(user.email)).toHaveLength(1);
    expect(await accountMailTo(unknown)).toHaveLength(0);
  });

  it("R1: the answer never waits for the address's lookup (D1 1 s late: answered within 500 ms)", async () => {
    const user = await signUp();
    const DB = slowDb(1_000);
    for (const email of [user.email, `nobody-${crypto.randomUUID()}@example.test`]) {
      const ctx = createExecutionContext();
      const started = performance.now();
      const res = await app.fetch(
        new Request(new URL(REQUEST, BASE), {
          method: "POST",
          headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshIp() },
          body: JSON.stringify({ email }),
        }),
        { ...env, DB },
        ctx,
      );
      expect(res.status).toBe(202);
      expect(performance.now() - started).toBeLessThan(500);
      await res.text();
      await waitOnExecutionContext(ctx);
    }
    // The work went on after the answer, on the same slow D1.
    expect(await accountMailTo(user.email)).toHaveLength(1);
  });

  it("e-mails a one-time link valid 30 minutes from EMAIL_FROM; D1 keeps only its hash", async () => {
    const user = await signUp({ email: `Mixed.${crypto.randomUUID()}@Example.TEST` });
    const before = Date.now();
    expect((await postAndSettle(REQUEST, { email: `  ${user.email.toUpperCase()} ` })).status).toBe(202);
    const [email] = await accountMailTo(user.email.toLowerCase());
    expect(email).toMatchObject({ from: env.EMAIL_FROM, subject: "Reset your password" });
    expect(email!.messageId).toBeTruthy();
    const token = resetTokenIn(email!);
    // The client the service serves, on the origin the request came to.
    expect(email!.text).toContain(`${BASE}/app/#/reset-password?token=${token}`);
    expect(email!.text).toContain(user.username);
    const row = await env.DB.prepare("SELECT * FROM password_resets_table WHERE userId = ?")
      .bind(user.userId)
      .first<{ tokenHash: string; expiresAt: string; usedAt: string | null }>();
    expect(row?.tokenHash).toBe(await hashOf(token));
    expect(Date.parse(row!.expiresAt) - before).toBeGreaterThanOrEqual(30 * 60_000 - 1_000);
    expect(Date.parse(row!.expiresAt) - before).toBeLessThanOrEqual(30 * 60_000 + 5_000);
    expect(row?.usedAt).toBeNull();
  });

  it("R3: at most 3 usable links per account: a fourth request answers the same and sends nothing", async () => {
    const user = await signUp();
    const insert = env.DB.prepare(
      "INSERT INTO password_resets_table (tokenHash, userId, expiresAt) VALUES (?, ?, ?)",
    );
    for (let i = 0; i < 3; i++) {
      await insert.bind(await hashOf(crypto.randomUUID()), user.userId, isoAgo(-600)).run();
    }
    const res = await postAndSettle(REQUEST, { email: user.email });
    expect(res.status).toBe(202);
    expect(await accountMailTo(user.email)).toHaveLength(0);
    expect(await countRows("password_resets_table", "userId", user.userId)).toBe(3);
  });

  it("R2: limited per client IP (10 a minute) and per address (3 a minute), 429 for known and unknown alike", async () => {
    await inOneWindow(20_000, async () => {
      const ip = freshIp();
      const statuses = [];
      for (let i = 0; i < 11; i++) {
        const res = await api(REQUEST, {
          method: "POST",
          json: { email: `spray-${crypto.randomUUID()}@example.test` },
          headers: { "CF-Connecting-IP": ip },
        });
        statuses.push(res.status);
        if (res.status === 429) expect(res.headers.get("Retry-After")).toBe("60");
      }
      expect(statuses).toEqual([...Array(10).fill(202), 429]);

      const user = await signUp();
      for (const email of [user.email, `nobody-${crypto.randomUUID()}@example.test`]) {
        const answers = [];
        for (let i = 0; i < 4; i++)
          answers.push((await api(REQUEST, { method: "POST", json: { email } })).status);
        expect(answers).toEqual([202, 202, 202, 429]);
      }
    });
  }, 60_000);

  it("a failing limiter refuses (503); a failing e-mail binding still answers 202 and logs it", async () => {
    const failing = { limit: () => injected("RESET_IP_LIMITER") } as unknown as RateLimit;
    const email = `nobody-${crypto.randomUUID()}@example.test`;
    expectError(await postAndSettle(REQUEST, { email }, { RESET_IP_LIMITER: failing }), 503);

    const user = await signUp();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const EMAIL = { send: () => injected("EMAIL") } as unknown as SendEmail;
    expect((await postAndSettle(REQUEST, { email: user.email }, { EMAIL })).status).toBe(202);
    const logged = errors.mock.calls.map((call) => String(call[0])).join("\n");
    expect(logged).toContain("password_reset_failed");
  });

  it("R8: logs the link only with LOG_RESET_LINKS=true (npm run dev, where e-mail is a file)", async () => {
    const user = await signUp();
    const logs = vi.spyOn(console, "warn").mockImplementation(() => {});
    const printed = () => logs.mock.calls.map((call) => String(call[0])).join("\n");
    await postAndSettle(REQUEST, { email: user.email });
    const quiet = resetTokenIn((await accountMailTo(user.email)).at(-1)!);
    expect(printed()).not.toContain(quiet);
    expect(printed()).not.toContain("password_reset_link");

    await postAndSettle(REQUEST, { email: user.email }, { LOG_RESET_LINKS: "true" });
    const token = resetTokenIn((await accountMailTo(user.email)).at(-1)!);
    const line = printed()
      .split("\n")
      .find((entry) => entry.includes("password_reset_link"))!;
    expect(JSON.parse(line).link).toBe(`${BASE}/app/#/reset-password?token=${token}`);
  });
});

describe("POST /api/auth/password-reset/confirm", () => {
  it("R4, R7: a recovery: sets the password and ends every session, old token, API key, OAuth grant and other link", async () => {
    const user = await signUp();
    const second = await signIn(user.username, user.password);
    const sessionless = await craftToken(HS256_HEADER, { ...claimsFor(user.userId, user.username), ver: 0 });
    const { key } = await createKey(user.token, ["todos:read"]);
    const grant = await grantFor(user);
    expect((await rpc(grant.access_token, "tools/list", {}, RESOURCE)).status).toBe(200);
    await addPasskey(user);
    const spare = await linkFor(user);
    const token = await linkFor(user);
    expect((await accountMailTo(user.email)).at(-1)!.text).toContain("ends every API key and connected app");

    const res = await postAndSettle(CONFIRM, { token, password: "the new password" });
    const done = expectData(res, 200, ResetDoneSchema);
    expect(done).toEqual({
      userId: user.userId,
      username: user.username,
      ended: { sessions: 2, apiKeys: 1, passkeys: 1, oauthGrants: 1 },
    });
    const notice = (await accountMailTo(user.email)).at(-1)!;
    expect(notice.subject).toBe("Your password was reset");
    expect(notice.text).toContain("ended 2 sessions");
    expect(notice.text).toContain("revoked 1 API key, deleted 1 passkey and disconnected 1 connected app");
    expectError(
      await api("/api/login", { method: "POST", json: { username: user.username, password: user.password } }),
      401,
    );
    expect(await logIn(user.username, "the new password")).toMatch(/\./);
    for (const old of [user.token, second.token]) {
      expectError(await api("/api/me", { token: old }), 401, "Session ended: sign in again");
    }
    expectError(await api("/api/me", { token: sessionless }), 401, "Token revoked: sign in again");
    for (const old of [user.refreshToken, second.refreshToken]) expectError(await refresh(old), 401);
    expectError(await api("/api/todos", { token: key }), 401, "API key revoked");
    expect((await rpc(grant.access_token, "tools/list", {}, RESOURCE)).status).toBe(401);
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: grant.refresh_token,
      client_id: grant.client.client_id,
    });
    expect(refreshed.body.error).toBe("invalid_grant");

    // One use, and the other link went with it.
    expectError(await confirm(token, "yet another password"), 400, INVALID_LINK);
    expectError(await confirm(spare, "yet another password"), 400, INVALID_LINK);
    expect(await logIn(user.username, "the new password")).toMatch(/\./);
  });

  it("R7: a grant KV could not revoke is refused on /mcp all the same (the grant version in D1 ended it)", async () => {
    const user = await signUp();
    const grant = await grantFor(user);
    const token = await linkFor(user);
    // KV refuses to list the grants: the reset still ends them, through the grant version in D1.
    const kv = withFaults(env.OAUTH_KV, { list: () => injected("KV list") });
    const res = await postAndSettle(CONFIRM, { token, password: "the new password" }, { OAUTH_KV: kv });
    expect(expectData(res, 200, ResetDoneSchema).ended).toEqual({
      sessions: 1,
      apiKeys: 0,
      passkeys: 0,
      oauthGrants: null,
    });
    expect((await accountMailTo(user.email)).at(-1)!.text).toContain("disconnected every connected app");
    expect((await rpc(grant.access_token, "tools/list", {}, RESOURCE)).status).toBe(401);
    expect(await grantsOf(await logIn(user.username, "the new password"))).toEqual([]);
    // A grant consented afterwards works.
    const fresh = await grantFor({ ...user, password: "the new password" });
    expect((await rpc(fresh.access_token, "tools/list", {}, RESOURCE)).status).toBe(200);
  });

  it("R5: an expired or unknown link is 400 and changes nothing", async () => {
    const user = await signUp();
    const token = await linkFor(user);
    await env.DB.prepare("UPDATE password_resets_table SET expiresAt = ? WHERE tokenHash = ?")
      .bind(isoAgo(1), await hashOf(token))
      .run();
    for (const candidate of [token, "A".repeat(43)]) {
      const before = await snapshotState();
      expectError(await confirm(candidate, "the new password"), 400, INVALID_LINK);
      expect(stateDiff(before, await snapshotState())).toBeNull();
    }
    expect(await logIn(user.username, user.password)).toMatch(/\./);
  });

  it("R6: two confirms of one link at once: one sets the password, the other is 400", async () => {
    const user = await signUp();
    const token = await linkFor(user);
    const answers = await Promise.all([
      confirm(token, "first new password"),
      confirm(token, "second new password"),
    ]);
    expect(answers.map((res) => res.status).toSorted()).toEqual([200, 400]);
    const winner = answers[0]!.status === 200 ? "first new password" : "second new password";
    expect(await logIn(user.username, winner)).toMatch(/\./);
  });

  it("a password the rules refuse is 400 and leaves the link usable", async () => {
    const user = await signUp();
    const token = await linkFor(user);
    for (const password of ["short", "p".repeat(257), 12345678]) {
      const before = await snapshotState();
      expectError(
        await api(CONFIRM, { method: "POST", json: { token, password } }),
        400,
        /^Invalid json: password/,
      );
      expect(stateDiff(before, await snapshotState())).toBeNull();
    }
    expect((await confirm(token, "a fine new password")).status).toBe(200);
  });
});
