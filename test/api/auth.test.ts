import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import app from "../../src/app";
import { freshUsername, logIn, registration, signUp } from "../helpers/auth";
import { countUsersByKey, snapshotUsers } from "../helpers/db";
import { api, BASE, expectError, expectData } from "../helpers/http";
import { decodePart } from "../helpers/tokens";
import { LoginResultSchema } from "../../src/routes/auth/auth.schemas";
import { UserSchema } from "../../src/routes/users/users.schemas";
import { postJsonWithEnv } from "../helpers/storage";

afterEach(() => vi.restoreAllMocks());

const post = (path: string, json: unknown) => api(path, { method: "POST", json });

/** Through app.fetch with chosen bindings (log level, a failing limiter). */
const callApp = (path: string, body: unknown, bindings: Partial<Env> = {}) =>
  postJsonWithEnv(path, body, bindings);

function toFullWidth(text: string): string {
  return text.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));
}

/** Admins in the shared local D1 (other files of the run may have made their own). */
async function adminCount(): Promise<number | undefined> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM users_table WHERE role = 'admin'").first<{
    n: number;
  }>();
  return row?.n;
}

describe("POST /api/register", () => {
  it("answers 201 with { userId, username, token, expiresAt, refreshToken } and stores the normalized profile", async () => {
    const input = registration({ email: "  Mixed.Case@Example.TEST ", age: 30 });
    const res = await post("/api/register", { ...input, username: `  ${input.username} ` });
    const data = expectData(res, 201, LoginResultSchema);
    expect(Object.keys(data).toSorted()).toEqual([
      "expiresAt",
      "refreshToken",
      "token",
      "userId",
      "username",
    ]);
    expect(data.username).toBe(input.username);
    const row = await env.DB.prepare("SELECT * FROM users_table WHERE id = ?").bind(data.userId).first();
    expect(row).toMatchObject({
      username: input.username,
      usernameKey: input.username.toLowerCase(),
      email: "mixed.case@example.test",
      role: "user",
      age: 30,
    });
  });

  it("the token works on protected routes right away", async () => {
    const user = await signUp();
    const res = await api(`/api/users/${user.userId}`, { token: user.token });
    expect(expectData(res, 200, UserSchema).role).toBe("user");
  });

  it("L3: 7 chars 400; 8, 64 and 256 accepted; 257 and 4 KiB 400", async () => {
    for (const [length, status] of [
      [7, 400],
      [8, 201],
      [64, 201],
      [256, 201],
      [257, 400],
      [4096, 400],
    ] as const) {
      const res = await post("/api/register", registration({ password: "p".repeat(length - 1) + "!" }));
      expect(res.status, `length ${length}`).toBe(status);
    }
  });

  it("L4: duplicate usernames, ignoring case and NFKC width, answer 409; still exactly one row", async () => {
    const base = freshUsername("adm");
    await signUp({ username: base });
    for (const variant of [
      base,
      base.toUpperCase(),
      `Adm${base.slice(3)}`,
      toFullWidth(base),
      ` ${base}\t`,
    ]) {
      const email = `${crypto.randomUUID()}@example.test`;
      const res = await post("/api/register", registration({ username: variant, email }));
      expectError(res, 409, "A user with this username already exists");
    }
    expect(await countUsersByKey(base.toLowerCase())).toBe(1);
  });

  it("409 for a duplicate email, ignoring case; no second row", async () => {
    const first = registration();
    await signUp(first);
    const before = await snapshotUsers();
    const res = await post("/api/register", registration({ email: first.email.toUpperCase() }));
    expectError(res, 409, "A user with this email already exists");
    expect(await snapshotUsers()).toEqual(before);
  });

  it("L5: role or id in the body is a 400 (strict schema); no admin is created", async () => {
    const adminsBefore = await adminCount();
    for (const extra of [{ role: "admin" }, { id: 1 }, { usernameKey: "x" }, { createdAt: "2020" }]) {
      const input = registration();
      const res = await post("/api/register", { ...input, ...extra });
      expectError(res, 400);
      expect(await countUsersByKey(input.username.toLowerCase())).toBe(0);
    }
    const proto = await api("/api/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(registration()).replace("{", '{"__proto__":{"role":"admin"},'),
    });
    expectError(proto, 400);
    expect(await adminCount()).toBe(adminsBefore);
  });

  it("L6: stores pbkdf2-sha256$100000$salt$hash; the same password gives different hashes", async () => {
    const password = "the very same password";
    const a = await signUp({ password });
    const b = await signUp({ password });
    const rows = await env.DB.prepare(
      "SELECT userId, passwordHash FROM user_credentials_table WHERE userId IN (?, ?) ORDER BY userId",
    )
      .bind(a.userId, b.userId)
      .all<{ passwordHash: string }>();
    expect(rows.results).toHaveLength(2);
    const [first, second] = rows.results.map((r) => r.passwordHash);
    expect(first).not.toBe(second);
    for (const stored of [first!, second!]) {
      const [scheme, iterations, salt, hash] = stored.split("$");
      expect(scheme).toBe("pbkdf2-sha256");
      expect(Number(iterations)).toBeLessThanOrEqual(100_000);
      expect(atob(salt!).length).toBe(16);
      expect(atob(hash!).length).toBe(32);
      expect(stored).not.toContain(password);
    }
  });

  it("accepts exactly the documented fields; age is optional", async () => {
    const { age: _age, ...withoutAge } = registration();
    expect((await post("/api/register", withoutAge)).status).toBe(201);
  });

  describe("bad input answers 400 in the envelope and writes nothing", () => {
    const cases: [string, (input: Record<string, unknown>) => unknown][] = [
      ["missing username", ({ username: _u, ...rest }) => rest],
      ["missing password", ({ password: _p, ...rest }) => rest],
      ["missing name", ({ name: _n, ...rest }) => rest],
      ["missing email", ({ email: _e, ...rest }) => rest],
      ["username as a number", (i) => ({ ...i, username: 12345 })],
      ["username too short", (i) => ({ ...i, username: "ab" })],
      ["username too long", (i) => ({ ...i, username: "a".repeat(33) })],
      ["username 1 MB", (i) => ({ ...i, username: "a".repeat(1_000_000) })],
      ["username with a space", (i) => ({ ...i, username: "two words" })],
      ["username with a slash", (i) => ({ ...i, username: "a/b/c" })],
      ["username with NUL", (i) => ({ ...i, username: "abc\u0000def" })],
      ["username with a lone surrogate", (i) => ({ ...i, username: "abc\ud800" })],
      ["username with SQL", (i) => ({ ...i, username: "' OR 1=1--" })],
      ["username blank", (i) => ({ ...i, username: "     " })],
      ["email invalid", (i) => ({ ...i, email: "not-an-email" })],
      ["email as array", (i) => ({ ...i, email: ["a@b.co"] })],
      ["name empty", (i) => ({ ...i, name: "" })],
      ["name too long", (i) => ({ ...i, name: "n".repeat(101) })],
      ["age negative", (i) => ({ ...i, age: -1 })],
      ["age fractional", (i) => ({ ...i, age: 1.5 })],
      ["age as string", (i) => ({ ...i, age: "30" })],
      ["age null", (i) => ({ ...i, age: null })],
      ["password as number", (i) => ({ ...i, password: 12345678 })],
      ["body is an array", (i) => [i]],
      ["body is null", () => null],
      ["body is a string", () => "hello"],
    ];
    it.each(cases)("%s", async (_label, mutate) => {
      const input = registration();
      const before = await snapshotUsers();
      const res = await post("/api/register", mutate({ ...input }));
      const error = expectError(res, 400);
      expect(error.message).toMatch(/^Invalid json/);
      expect(await snapshotUsers()).toEqual(before);
    });

    it("malformed JSON, text/plain, no Content-Type, an empty body", async () => {
      const good = JSON.stringify(registration());
      for (const init of [
        { headers: { "Content-Type": "application/json" }, body: "{" },
        { headers: { "Content-Type": "application/json" }, body: '{"username":"abc",}' },
        { headers: { "Content-Type": "application/json" }, body: "" },
        { headers: { "Content-Type": "text/plain" }, body: good },
        { headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "username=abc" },
        { body: new Blob([good]).stream() },
        {},
      ]) {
        const res = await api("/api/register", { method: "POST", ...init });
        expectError(res, 400);
      }
    });

    it("a body over 1 MiB answers 413", async () => {
      const res = await post("/api/register", { ...registration(), name: "n".repeat(1024 * 1024 + 10) });
      expectError(res, 413, "Request body too large");
    });
  });
});

describe("POST /api/login", () => {
  it("answers 201 with { userId, username, token, expiresAt, refreshToken } for the right password", async () => {
    const user = await signUp();
    const res = await post("/api/login", { username: user.username, password: user.password });
    const data = expectData(res, 201, LoginResultSchema);
    expect(data).toEqual({
      userId: user.userId,
      username: user.username,
      token: expect.any(String),
      expiresAt: expect.any(String),
      refreshToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    // expiresAt is the token's own exp; a new login is a new session with its own refresh token.
    expect(Date.parse(data.expiresAt) / 1000).toBe(decodePart(data.token.split(".")[1]!).exp);
    expect(data.refreshToken).not.toBe(user.refreshToken);
  });

  it("matches the username ignoring case and width", async () => {
    const user = await signUp();
    for (const username of [user.username.toUpperCase(), toFullWidth(user.username)]) {
      const res = await post("/api/login", { username, password: user.password });
      expect(expectData(res, 201, LoginResultSchema).userId).toBe(user.userId);
    }
  });

  it("L1: unknown user and wrong password answer the same 401, each after one full derivation", async () => {
    const user = await signUp();
    const derive = vi.spyOn(crypto.subtle, "deriveBits");
    const attempts = {
      unknown: { username: freshUsername(), password: user.password },
      wrongPassword: { username: user.username, password: `${user.password}x` },
    };
    const bodies: string[] = [];
    for (const [label, body] of Object.entries(attempts)) {
      derive.mockClear();
      const res = await post("/api/login", body);
      expectError(res, 401, "Invalid username or password");
      bodies.push(res.text);
      expect(derive, label).toHaveBeenCalledTimes(1);
      expect(derive.mock.calls[0]?.[0]).toMatchObject({ name: "PBKDF2", iterations: 100_000 });
    }
    expect(bodies[0]).toBe(bodies[1]);
  });

  it("L3: a prefix of the password is 401 (no truncation)", async () => {
    const password = `${"x".repeat(100)}-tail`;
    const user = await signUp({ password });
    expectError(
      await post("/api/login", { username: user.username, password: password.slice(0, -1) }),
      401,
      "Invalid username or password",
    );
    expect((await post("/api/login", { username: user.username, password })).status).toBe(201);
  });

  it("L8: the token has exp - iat = 3600 and sub == data.userId", async () => {
    const user = await signUp();
    const token = await logIn(user.username, user.password);
    const [header, payload] = token.split(".");
    expect(decodePart(header!)).toEqual({ alg: "HS256", typ: "JWT" });
    const claims = decodePart(payload!);
    // The documented claims (sub, iat, exp, data), plus `ver` (the user's token version) and `sid` (the
    // session), both for revocation.
    expect(Object.keys(claims).toSorted()).toEqual(["data", "exp", "iat", "sid", "sub", "ver"]);
    expect(claims.ver).toBe(0);
    expect(claims.exp - claims.iat).toBe(3600);
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(60);
    expect(claims.sub).toBe(String(user.userId));
    expect(claims.data).toEqual({ userId: String(user.userId), username: user.username });
  });

  it("bad input answers 400 in the envelope", async () => {
    for (const body of [
      {},
      { username: "abc" },
      { password: "12345678" },
      { username: "abc", password: "12345678", extra: 1 },
      { username: 1, password: "12345678" },
      { username: "abc", password: ["12345678"] },
      { username: "abc", password: "p".repeat(10_000) },
      { username: "a".repeat(100_000), password: "12345678" },
      null,
      [],
    ]) {
      expectError(await post("/api/login", body), 400);
    }
    for (const init of [
      { headers: { "Content-Type": "application/json" }, body: "{" },
      { headers: { "Content-Type": "text/plain" }, body: '{"username":"abc","password":"12345678"}' },
      {},
    ]) {
      expectError(await api("/api/login", { method: "POST", ...init }), 400);
    }
  });

  it("a wrong method on a public path answers 404 in the envelope", async () => {
    expectError(await api("/api/login"), 404, "Not found");
    expectError(await api("/api/register", { method: "PUT" }), 404, "Not found");
  });
});

describe("L7: passwords and tokens never appear in responses or log lines", () => {
  it("register, login, a failed login and a profile read", async () => {
    const lines: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(" "));
      });
    }
    const input = registration();
    const bindings = { LOG_LEVEL: "debug" };
    const register = await callApp("/api/register", input, bindings);
    const token = JSON.parse(register.text).data.token as string;
    const login = await callApp(
      "/api/login",
      { username: input.username, password: input.password },
      bindings,
    );
    const failed = await callApp(
      "/api/login",
      { username: input.username, password: `${input.password}!` },
      bindings,
    );
    const ctx = createExecutionContext();
    const profile = await app.fetch(
      new Request(`${BASE}/api/users/${JSON.parse(register.text).data.userId}`, {
        headers: { Authorization: `Bearer ${token}` },
      }),
      { ...env, ...bindings },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const profileText = await profile.text();

    expect(register.status).toBe(201);
    expect(login.status).toBe(201);
    expect(failed.status).toBe(401);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const everything = [...lines, register.text, login.text, failed.text, profileText].join("\n");
    expect(everything).not.toContain(input.password);
    expect(profileText).not.toMatch(/pbkdf2|passwordHash/);
    const [, payload, signature] = token.split(".");
    expect(lines.join("\n")).not.toContain(signature);
    expect(lines.join("\n")).not.toContain(payload);
    expect(lines.some((line) => line.includes('"event":"auth_login"'))).toBe(true);
  });
});
