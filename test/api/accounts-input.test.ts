// docs/security.md V1-V6 on the account routes (refresh, logout, sessions, password reset, API keys,
// /api/me): every bad input is a clear 4xx in the envelope, never a 5xx, and changes nothing stored.
import { beforeAll, describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { createKey, sessionOf } from "../helpers/credentials";
import { api, BAD_PAGING, expectError, type ApiInit } from "../helpers/http";
import { snapshotState, stateDiff } from "../helpers/state";

let alice: SignedUpUser;
let bob: SignedUpUser;
let aliceKey: { id: number; key: string };
let bobKey: { id: number };

beforeAll(async () => {
  [alice, bob] = await Promise.all([signUp(), signUp()]);
  aliceKey = await createKey(alice.token, ["todos:read"]);
  bobKey = await createKey(bob.token, ["todos:read"]);
});

// Half the 1 MiB body limit: a field this long reaches validation (a whole 1 MB is a 413, tested apart).
const HALF_MB = "x".repeat(512 * 1024);
const raw = (body: string, contentType = "application/json"): ApiInit => ({
  method: "POST",
  body,
  headers: { "Content-Type": contentType },
});
const json = (body: unknown, token?: string): ApiInit => ({ method: "POST", json: body, token });

/** The bad bodies every JSON route gets: not JSON, not declared JSON, not an object, too big. */
function badBodies(
  path: string,
  valid: Record<string, unknown>,
  token?: string,
): [string, string, ApiInit, number][] {
  const withAuth = (init: ApiInit): ApiInit => ({ ...init, token });
  return [
    ["malformed JSON", path, withAuth(raw("{")), 400],
    ["a trailing comma", path, withAuth(raw(`${JSON.stringify(valid).slice(0, -1)},}`)), 400],
    ["JSON sent as text/plain", path, withAuth(raw(JSON.stringify(valid), "text/plain")), 400],
    ["an array", path, json([valid], token), 400],
    ["null", path, json(null, token), 400],
    ["an extra field", path, json({ ...valid, role: "admin" }, token), 400],
    [
      "__proto__",
      path,
      withAuth(raw(`{"__proto__":{"role":"admin"},${JSON.stringify(valid).slice(1)}`)),
      400,
    ],
    ["a 2 MB body", path, json({ ...valid, pad: HALF_MB.repeat(4) }, token), 413],
  ];
}

const me = (token?: string): ApiInit => ({ token });

function cases(): [string, string, ApiInit, number][] {
  const ownSession = sessionOf(alice.token);
  return [
    // POST /api/auth/refresh
    ...badBodies("/api/auth/refresh", { refreshToken: "A".repeat(43) }),
    ["refresh: no token", "/api/auth/refresh", json({}), 400],
    ["refresh: a number", "/api/auth/refresh", json({ refreshToken: 42 }), 400],
    ["refresh: a 512 KB token", "/api/auth/refresh", json({ refreshToken: HALF_MB }), 400],
    ["refresh: a JWT instead", "/api/auth/refresh", json({ refreshToken: alice.token }), 400],
    ["refresh: an unknown token", "/api/auth/refresh", json({ refreshToken: "B".repeat(43) }), 401],
    // POST /api/auth/logout
    ["logout: no token", "/api/auth/logout", json(undefined), 401],
    ["logout: a forged token", "/api/auth/logout", json(undefined, "a.b.c"), 401],
    ["logout: an API key", "/api/auth/logout", json(undefined, aliceKey.key), 403],
    ["logout: a text body", "/api/auth/logout", { ...raw("bye", "text/plain"), token: alice.token }, 400],
    // GET /api/auth/sessions, POST /api/auth/sessions/:id/revoke
    ["sessions: no token", "/api/auth/sessions", me(), 401],
    ["sessions: an API key", "/api/auth/sessions", me(aliceKey.key), 403],
    [
      "revoke: someone else's session",
      `/api/auth/sessions/${sessionOf(bob.token)}/revoke`,
      json(undefined, alice.token),
      404,
    ],
    [
      "revoke: an unknown session",
      `/api/auth/sessions/${crypto.randomUUID()}/revoke`,
      json(undefined, alice.token),
      404,
    ],
    [
      "revoke: a 65-character id",
      `/api/auth/sessions/${"a".repeat(65)}/revoke`,
      json(undefined, alice.token),
      400,
    ],
    [
      "revoke: own session with an API key",
      `/api/auth/sessions/${ownSession}/revoke`,
      json(undefined, aliceKey.key),
      403,
    ],
    ["revoke: no token", `/api/auth/sessions/${ownSession}/revoke`, json(undefined), 401],
    // POST /api/auth/password-reset and /confirm
    ...badBodies("/api/auth/password-reset", { email: "a@example.test" }),
    ["reset: no email", "/api/auth/password-reset", json({}), 400],
    ["reset: not an address", "/api/auth/password-reset", json({ email: "nobody" }), 400],
    ["reset: an array of addresses", "/api/auth/password-reset", json({ email: [alice.username] }), 400],
    ["reset: a 512 KB address", "/api/auth/password-reset", json({ email: `${HALF_MB}@example.test` }), 400],
    ...badBodies("/api/auth/password-reset/confirm", { token: "A".repeat(43), password: "a long password" }),
    ["confirm: no password", "/api/auth/password-reset/confirm", json({ token: "A".repeat(43) }), 400],
    ["confirm: no token", "/api/auth/password-reset/confirm", json({ password: "a long password" }), 400],
    [
      "confirm: a short password",
      "/api/auth/password-reset/confirm",
      json({ token: "A".repeat(43), password: "short" }),
      400,
    ],
    [
      "confirm: a malformed token",
      "/api/auth/password-reset/confirm",
      json({ token: "abc", password: "a long password" }),
      400,
    ],
    [
      "confirm: an unknown token",
      "/api/auth/password-reset/confirm",
      json({ token: "A".repeat(43), password: "a long password" }),
      400,
    ],
    // POST /api/keys, GET /api/keys, POST /api/keys/:id/revoke
    ...badBodies("/api/keys", { name: "k", scopes: ["todos:read"] }, alice.token),
    ["keys: a 512 KB name", "/api/keys", json({ name: HALF_MB, scopes: ["todos:read"] }, alice.token), 400],
    [
      "keys: 10,000 scopes",
      "/api/keys",
      json({ name: "k", scopes: Array(10_000).fill("todos:read") }, alice.token),
      400,
    ],
    ["keys: no token", "/api/keys", json({ name: "k", scopes: ["todos:read"] }), 401],
    ...BAD_PAGING.map((query): [string, string, ApiInit, number] => [
      `keys: ?${query}`,
      `/api/keys?${query}`,
      me(alice.token),
      400,
    ]),
    ["revoke key: someone else's", `/api/keys/${bobKey.id}/revoke`, json(undefined, alice.token), 404],
    ["revoke key: never issued", "/api/keys/2147483647/revoke", json(undefined, alice.token), 404],
    ...["abc", "-1", "0", "1.5", "1e3", "9007199254740993"].map((id): [string, string, ApiInit, number] => [
      `revoke key: id ${id}`,
      `/api/keys/${id}/revoke`,
      json(undefined, alice.token),
      400,
    ]),
    // GET /api/me
    ["me: no token", "/api/me", me(), 401],
    ["me: a key-shaped unknown key", "/api/me", me(`wsk_${"Z".repeat(43)}`), 401],
    ["me: a tampered token", "/api/me", me(`${alice.token.slice(0, -2)}xx`), 401],
  ];
}

describe("account routes refuse bad input with a 4xx in the envelope and change nothing", () => {
  it("every case", async () => {
    for (const [label, path, init, status] of cases()) {
      const before = await snapshotState();
      const res = await api(path, init);
      expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBe(status);
      expectError(res, status);
      expect(res.headers.get("Content-Type"), label).toBe("application/json; charset=utf-8");
      expect(stateDiff(before, await snapshotState()), label).toBeNull();
    }
    // None of the refusals ended anything of Alice's or Bob's.
    for (const token of [alice.token, bob.token, aliceKey.key])
      expect((await api("/api/me", { token })).status).toBe(200);
  });
});
