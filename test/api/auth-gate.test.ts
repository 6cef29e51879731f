import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sign } from "hono/jwt";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import app from "../../src/app";
import { OPENAPI_CONFIG } from "../../src/http/openapi-doc";
import { publicApiPaths } from "../../src/http/require-auth";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { snapshotUsers, userRow } from "../helpers/db";
import { api, BASE, expectError, expectData, type ErrorEnvelope } from "../helpers/http";
import { b64url, claimsFor, craftToken, HS256_HEADER, nowSeconds } from "../helpers/tokens";
import { UserViewSchema } from "../../src/routes/users/users.schemas";

// docs/security.md J1-J20: every failure is 401 in the envelope with a fixed challenge.
let alice: SignedUpUser;
let victim: SignedUpUser;

beforeAll(async () => {
  alice = await signUp();
  victim = await signUp();
});
afterEach(() => vi.restoreAllMocks());

const json = (body: object) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** GET alice's own profile with this Authorization header value. */
function readSelf(authorization?: string, path = `/api/users/${alice.userId}`) {
  return api(path, { headers: authorization === undefined ? {} : { Authorization: authorization } });
}

function expect401(res: Awaited<ReturnType<typeof api>>, message?: string | RegExp) {
  expectError(res, 401, message);
  const challenge = res.headers.get("WWW-Authenticate");
  expect(challenge).toMatch(/^Bearer realm="api"(, error="invalid_token")?$/);
}

async function bearer(token: string) {
  const res = await readSelf(`Bearer ${token}`);
  expect401(res);
  expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="api", error="invalid_token"');
  return res;
}

describe("the /api/* gate accepts", () => {
  it("a token from register, with the Bearer scheme in any case", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR"]) {
      const res = await readSelf(`${scheme} ${alice.token}`);
      expect(res.status, scheme).toBe(200);
      expect(expectData(res, 200, UserViewSchema)).toMatchObject({
        id: alice.userId,
        username: alice.username,
      });
    }
    expect((await readSelf(`  Bearer \t ${alice.token}  `)).status).toBe(200);
  });
});

describe("the /api/* gate rejects", () => {
  it("J1: no Authorization header; the handler does not run", async () => {
    const before = await snapshotUsers();
    const res = await api(`/api/users/${victim.userId}/delete`, { method: "POST" });
    expect401(res, "Missing bearer token");
    expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="api"');
    expect(await snapshotUsers()).toEqual(before);
  });

  it("J2: `Bearer` alone, `Bearer a b`, an empty token", async () => {
    for (const value of ["Bearer", "Bearer ", "Bearer a b", `Bearer ${alice.token} extra`, " "]) {
      expect401(await readSelf(value));
    }
  });

  it("J3: a valid token under another scheme (Basic, Token, none)", async () => {
    for (const value of [
      `Basic ${alice.token}`,
      `Token ${alice.token}`,
      alice.token,
      `Bearer: ${alice.token}`,
    ]) {
      expect401(await readSelf(value));
    }
  });

  it("J4: 1, 2 or 4 segments, non-base64url segments, a header that is not JSON", async () => {
    const [h, p, s] = alice.token.split(".");
    for (const token of [
      h!,
      `${h}.${p}`,
      `${h}.${p}.${s}.${s}`,
      `${h}.${p}.${s}!`,
      `${h}.${p}.${s}*`,
      `${h}!.${p}.${s}`,
      `${b64url("not json")}.${p}.${s}`,
      `${b64url('"a string"')}.${p}.${s}`,
      `..`,
    ]) {
      await bearer(token);
    }
  });

  it("J5: alg none with an empty signature", async () => {
    const claims = claimsFor(alice.userId, alice.username);
    for (const alg of ["none", "None", "NONE"]) {
      await bearer(`${b64url(JSON.stringify({ alg, typ: "JWT" }))}.${b64url(JSON.stringify(claims))}.`);
    }
  });

  it("J6: HS384 and HS512 tokens signed with the real secret", async () => {
    const claims = claimsFor(alice.userId, alice.username);
    await bearer(await craftToken({ alg: "HS384", typ: "JWT" }, claims, { hmac: "HS384" }));
    await bearer(await craftToken({ alg: "HS512", typ: "JWT" }, claims, { hmac: "HS512" }));
    await bearer(await sign(claims, env.JWT_SECRET, "HS512"));
  });

  it("J7: RS256 / ES256 headers (key confusion with the HMAC secret)", async () => {
    const claims = claimsFor(alice.userId, alice.username);
    for (const alg of ["RS256", "ES256", "PS256", "EdDSA"]) {
      await bearer(await craftToken({ alg, typ: "JWT" }, claims));
    }
  });

  it("J8: one flipped byte in the signature", async () => {
    const [h, p, s] = alice.token.split(".");
    const flipped = (s![0] === "A" ? "B" : "A") + s!.slice(1);
    await bearer(`${h}.${p}.${flipped}`);
  });

  it("J9: payload edited to the victim's id with the old signature; victim intact", async () => {
    const [h, , s] = alice.token.split(".");
    const forged = b64url(JSON.stringify(claimsFor(victim.userId, victim.username)));
    const before = await snapshotUsers();
    const res = await api(`/api/users/${victim.userId}/delete`, {
      method: "POST",
      headers: { Authorization: `Bearer ${h}.${forged}.${s}` },
    });
    expect401(res);
    expect(await snapshotUsers()).toEqual(before);
    expect(await userRow(victim.userId)).not.toBeNull();
  });

  it("J10: exp one second in the past", async () => {
    await bearer(await craftToken(HS256_HEADER, { ...claimsFor(alice.userId), exp: nowSeconds() - 1 }));
  });

  it("J11: a validly signed token with no exp (or no iat)", async () => {
    const { exp: _exp, ...noExp } = claimsFor(alice.userId);
    const { iat: _iat, ...noIat } = claimsFor(alice.userId);
    await bearer(await craftToken(HS256_HEADER, noExp));
    await bearer(await craftToken(HS256_HEADER, noIat));
  });

  it("J12: exp, nbf or iat as a string, NaN-like or infinite; nbf or iat in the future", async () => {
    const now = nowSeconds();
    const base = claimsFor(alice.userId);
    const data = JSON.stringify(base.data);
    for (const payload of [
      { ...base, exp: String(now + 600) },
      { ...base, iat: String(now) },
      { ...base, nbf: String(now - 10) },
      { ...base, exp: null },
      { ...base, exp: "NaN" },
      { ...base, exp: now + 600.5 },
      { ...base, nbf: now + 600 },
      { ...base, iat: now + 600 },
      `{"sub":"${alice.userId}","iat":${now},"exp":1e999,"data":${data}}`,
      `{"sub":"${alice.userId}","iat":-1e999,"exp":${now + 600},"data":${data}}`,
    ]) {
      await bearer(await craftToken(HS256_HEADER, payload));
    }
  });

  it("J13: typ other than JWT; added kid, jku or jwk headers (even when signed with the real key)", async () => {
    const claims = claimsFor(alice.userId, alice.username);
    for (const header of [
      { alg: "HS256", typ: "JWS" },
      { alg: "HS256", typ: "at+jwt" },
      { alg: "HS256" },
      { ...HS256_HEADER, kid: "../../key" },
      { ...HS256_HEADER, jku: "https://attacker.example/jwks.json" },
      { ...HS256_HEADER, jwk: { kty: "oct", k: b64url("attacker") } },
      { ...HS256_HEADER, crit: ["exp"] },
    ]) {
      await bearer(await craftToken(header, claims));
    }
  });

  it("J14: signed with a wrong, weak or one-character secret", async () => {
    const claims = claimsFor(alice.userId, alice.username);
    for (const secret of ["wrong-secret-that-is-long-enough-for-hs256-0123456789", "secret", "x"]) {
      await bearer(await craftToken(HS256_HEADER, claims, { secret }));
    }
  });

  it("J15: a valid token of a user deleted after issue", async () => {
    const gone = await signUp();
    const removed = await api(`/api/users/${gone.userId}/delete`, { method: "POST", token: gone.token });
    expect(removed.status).toBe(200);
    expect401(await api(`/api/users/${gone.userId}`, { token: gone.token }), "User no longer exists");
    expect401(await api("/api/users", { token: gone.token }));
  });

  it("J16: a valid token without data.userId, or with a non-numeric one", async () => {
    const base = claimsFor(alice.userId, alice.username);
    for (const data of [
      undefined,
      {},
      { username: alice.username },
      { userId: "abc", username: alice.username },
      { userId: alice.userId, username: alice.username },
      { userId: "0", username: alice.username },
      { userId: `${alice.userId}.0`, username: alice.username },
      "not an object",
    ]) {
      const res = await readSelf(`Bearer ${await craftToken(HS256_HEADER, { ...base, data })}`);
      if (typeof data === "string") expect401(res);
      else expect401(res, "Unauthorized: User ID not found in JWT payload");
    }
  });

  it("J17: a token in ?token= is not accepted on /api", async () => {
    const res = await api(`/api/users/${alice.userId}?token=${alice.token}`);
    expect401(res, "Missing bearer token");
    expect(res.text).not.toContain(alice.token);
    expect(res.headers.get("WWW-Authenticate")).not.toContain("token=");
  });

  it("J18: 8 KB and 100 KB Authorization values answer 401, not 5xx", async () => {
    for (const size of [8 * 1024, 100 * 1024]) {
      expect401(await readSelf(`Bearer ${"a".repeat(size)}`));
      expect401(await readSelf(`Bearer ${"a".repeat(size / 2)}.${"b".repeat(size / 2)}.c`));
    }
  });

  it("J19: JWT_SECRET missing or under 32 bytes: 500, one log line, no token, no user row", async () => {
    for (const JWT_SECRET of [undefined, "", "short", "x".repeat(31)]) {
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const before = await snapshotUsers();
      const username = `nosecret_${crypto.randomUUID().slice(0, 8)}`;
      const call = async (path: string, init: RequestInit = {}) => {
        const ctx = createExecutionContext();
        const res = await app.fetch(new Request(`${BASE}${path}`, init), { ...env, JWT_SECRET }, ctx);
        await waitOnExecutionContext(ctx);
        return { status: res.status, text: await res.text() };
      };

      const login = await call("/api/login", json({ username: alice.username, password: alice.password }));
      const register = await call(
        "/api/register",
        json({ username, password: "long enough", name: "N", email: `${username}@example.test` }),
      );
      const guarded = await call(`/api/users/${alice.userId}`, {
        headers: { Authorization: `Bearer ${alice.token}` },
      });
      for (const res of [login, register, guarded]) {
        expect(res.status).toBe(500);
        expect(JSON.parse(res.text)).toEqual({ success: false, error: { message: "Internal server error" } });
        expect(res.text).not.toMatch(/JWT|secret|eyJ/i);
      }
      expect(errors).toHaveBeenCalledTimes(3);
      for (const [line] of errors.mock.calls)
        expect(String(line)).toContain("JWT_SECRET is missing or shorter");
      expect(await snapshotUsers()).toEqual(before);
      vi.restoreAllMocks();
    }
  });

  it("J20: ways around the public-path exemption still hit the gate", async () => {
    const before = await snapshotUsers();
    const protectedRoutes = [
      "/api/users",
      "/api/users/",
      "/api//users",
      "/api/%75sers",
      "/api/users%2F",
      "/api/login/../users",
      "/api/download/../users",
      "/api/download/x/../../users",
      "/api/./users",
    ];
    for (const path of protectedRoutes) {
      expect401(await api(path), "Missing bearer token");
    }
    const neverPublic = [
      "/api/downloadX",
      "/api/download",
      "/api/download/",
      "/api/download/a/b",
      "/api/download//users",
      "/api/login/..%2Fusers",
      "/api/login/",
      "/api/login%2F..%2Fusers",
      "/api/register/x",
      "/api/loginx",
      "/api/users;/api/login",
    ];
    for (const path of neverPublic) {
      const res = await api(path, { method: "POST" });
      expect401(res);
      expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="api"');
    }
    // Case variants are other paths: not routed, and never served without a token.
    for (const path of ["/API/users", "/Api/users", "/api/USERS"]) {
      const res = await api(path);
      expect([401, 404]).toContain(res.status);
      expect((res.body as ErrorEnvelope).success).toBe(false);
    }
    const forged = await api(`/api/users/${victim.userId}/delete/`, { method: "POST" });
    expect401(forged);
    expect(await snapshotUsers()).toEqual(before);
  });

  it("the public paths are those of the operations marked PUBLIC, and only those", () => {
    const isPublic = publicApiPaths(app);
    const operations = Object.entries(app.getOpenAPI31Document(OPENAPI_CONFIG).paths ?? {}).flatMap(
      ([path, item]) =>
        Object.entries(item as Record<string, { security?: unknown[] }>).map(([method, op]) => ({
          operation: `${method.toUpperCase()} ${path}`,
          marked: op.security?.length === 0,
          // Each path parameter as one segment.
          path: path.replaceAll(/\{.+?\}/g, "x"),
        })),
    );
    expect(operations.filter((o) => o.marked && o.path.startsWith("/api/")).map((o) => o.operation)).toEqual([
      "POST /api/register",
      "POST /api/login",
      "POST /api/auth/refresh",
      "POST /api/auth/password-reset",
      "POST /api/auth/password-reset/confirm",
      "POST /api/auth/email/confirm",
      "POST /api/auth/passkey/options",
      "POST /api/auth/passkey/verify",
      "GET /api/download/{key}",
      "HEAD /api/download/{key}",
      "GET /api/links/{token}",
    ]);
    for (const { operation, marked, path } of operations) {
      expect(isPublic(path), operation).toBe(marked);
    }
  });

  it("unknown /api routes: 401 without a token, 404 in the envelope with one", async () => {
    expect401(await api("/api/nope"), "Missing bearer token");
    expectError(await api("/api/nope", { token: alice.token }), 404, "Not found");
    expectError(await api(`/api/users/${alice.userId}`, { method: "PUT", token: alice.token }), 404);
  });

  it("E3: the challenge never echoes the URL or query", async () => {
    const res = await api("/api/users?token=secret-value&x=%22");
    expect401(res);
    expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="api"');
    const bad = await api("/api/users?next=/evil", { headers: { Authorization: "Bearer x.y.z" } });
    expect(bad.headers.get("WWW-Authenticate")).toBe('Bearer realm="api", error="invalid_token"');
  });
});
