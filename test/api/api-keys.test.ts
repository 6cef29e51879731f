// docs/security.md K1-K6: API keys. The secret is answered once and only its hash and last four
// characters are stored; a key works within its scopes (403 naming the scope otherwise), never on
// routes that manage the account, and a revoked or expired one is 401.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { countRows, createKey, hashOf, isoAgo } from "../helpers/credentials";
import { api, expectData, expectError } from "../helpers/http";
import { multipartBody } from "../helpers/multipart";
import { snapshotState, stateDiff } from "../helpers/state";
import { ApiKeyPageSchema, ApiKeySchema, CreatedApiKeySchema } from "../../src/routes/keys/keys.schemas";
import { MeSchema } from "../../src/routes/users/users.schemas";
import { TodoPageSchema } from "../../src/todos/todos.schemas";
import { UploadResultSchema } from "../../src/routes/files/files.schemas";

let owner: SignedUpUser;
beforeAll(async () => {
  owner = await signUp();
});

const post = (path: string, token: string, json?: unknown) => api(path, { method: "POST", token, json });
const LACKS = (scope: string) => `This API key lacks the scope ${scope}`;
const SIGN_IN_ONLY = "This route needs a signed-in session; API keys cannot use it";

/** `call` answers `status` (and `message`) and leaves every D1 row and R2 object as it was. */
async function expectRefused(
  call: () => Promise<Awaited<ReturnType<typeof api>>>,
  status: number,
  message?: string,
) {
  const before = await snapshotState();
  expectError(await call(), status, message);
  expect(stateDiff(before, await snapshotState())).toBeNull();
}

describe("POST /api/keys", () => {
  it("K1: answers the secret once; D1 keeps only its hash and last four characters", async () => {
    const res = await post("/api/keys", owner.token, {
      name: "  backup script ",
      scopes: ["todos:read", "todos:write", "todos:read"],
      currentPassword: owner.password,
      expiresAt: "2099-01-01T00:00:00+02:00".replace("2099", String(new Date().getFullYear() + 1)),
    });
    const created = expectData(res, 201, CreatedApiKeySchema);
    expect(created.key).toMatch(/^wsk_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: "backup script",
      scopes: ["todos:read", "todos:write"],
      lastFour: created.key.slice(-4),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(created.expiresAt).toMatch(/T22:00:00\.000Z$/);

    const row = await env.DB.prepare("SELECT * FROM api_keys_table WHERE id = ?").bind(created.id).first();
    expect(row?.keyHash).toBe(await hashOf(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(4, -4));

    const list = await api("/api/keys", { token: owner.token });
    const page = expectData(list, 200, ApiKeyPageSchema);
    expect(page.items[0]).toMatchObject({ id: created.id, lastFour: created.key.slice(-4) });
    expect(page.items[0]).not.toHaveProperty("key");
    expect(list.text).not.toContain(created.key.slice(4, -4));
    expect(list.text).not.toContain("keyHash");
  });

  it("bad names, scopes and expiry dates are 400, and nothing is stored", async () => {
    const nextYear = new Date().getFullYear() + 1;
    for (const body of [
      { name: "x", scopes: ["todos:delete"] },
      { name: "x", scopes: ["admin"] },
      { name: "x", scopes: [] },
      { name: "x", scopes: "todos:read" },
      { name: "x", scopes: ["todos:read", 1] },
      { name: "", scopes: ["todos:read"] },
      { name: "n".repeat(101), scopes: ["todos:read"] },
      { scopes: ["todos:read"] },
      { name: "x" },
      { name: "x", scopes: ["todos:read"], expiresAt: "2001-01-01T00:00:00Z" },
      { name: "x", scopes: ["todos:read"], expiresAt: `${nextYear + 1}-12-31T00:00:00Z` },
      { name: "x", scopes: ["todos:read"], expiresAt: `${nextYear}-01-01` },
      { name: "x", scopes: ["todos:read"], expiresAt: "tomorrow" },
      { name: "x", scopes: ["todos:read"], expiresAt: 4_102_444_800 },
      { name: "x", scopes: ["todos:read"], userId: 1 },
      { name: "x", scopes: ["todos:read"], keyHash: "00" },
    ]) {
      await expectRefused(() => post("/api/keys", owner.token, body), 400);
    }
  });

  it("K6: at most 50 usable keys per user (409); revoked and expired ones do not count", async () => {
    const user = await signUp();
    const insert = env.DB.prepare(
      "INSERT INTO api_keys_table (userId, name, keyHash, lastFour, scopes, expiresAt, revokedAt) VALUES (?, 'k', ?, 'abcd', '[\"todos:read\"]', ?, ?)",
    );
    const rows = Array.from({ length: 49 }, () => insert.bind(user.userId, crypto.randomUUID(), null, null));
    rows.push(insert.bind(user.userId, crypto.randomUUID(), isoAgo(60), null));
    rows.push(insert.bind(user.userId, crypto.randomUUID(), null, isoAgo(60)));
    await env.DB.batch(rows);
    await createKey(user.token, ["todos:read"]);
    await expectRefused(
      () => post("/api/keys", user.token, { name: "one too many", scopes: ["todos:read"] }),
      409,
      "At most 50 usable API keys per user: revoke one first",
    );
  });
});

describe("K2: a key works within its scopes", () => {
  it("todos:read reads todos; writing them is 403 naming todos:write, and writes nothing", async () => {
    const { key } = await createKey(owner.token, ["todos:read"]);
    const todo = await post("/api/todos", owner.token, { title: "mine" });
    const id = (todo.body as { data: { id: number } }).data.id;
    expect(expectData(await api("/api/todos", { token: key }), 200, TodoPageSchema).total).toBeGreaterThan(0);
    expect((await api(`/api/todos/${id}`, { token: key })).status).toBe(200);
    expect((await api(`/api/users/${owner.userId}/todos`, { token: key })).status).toBe(200);
    await expectRefused(() => post("/api/todos", key, { title: "by key" }), 403, LACKS("todos:write"));
    await expectRefused(() => post(`/api/todos/${id}`, key, { title: "edited" }), 403, LACKS("todos:write"));
    await expectRefused(() => post(`/api/todos/${id}/delete`, key), 403, LACKS("todos:write"));
  });

  it("todos:write writes but cannot read; files:write uploads; without it an upload is 403 before the body", async () => {
    const { key: writer } = await createKey(owner.token, ["todos:write", "files:write"]);
    expect((await post("/api/todos", writer, { title: "by key" })).status).toBe(201);
    expectError(await api("/api/todos", { token: writer }), 403, LACKS("todos:read"));

    const form = multipartBody([{ name: "file", filename: "k.txt", body: "from a key" }]);
    const upload = (token: string) =>
      api("/api/upload", {
        method: "POST",
        token,
        body: form.body,
        headers: { "Content-Type": form.contentType },
      });
    expectData(await upload(writer), 201, UploadResultSchema);
    const { key: reader } = await createKey(owner.token, ["todos:read"]);
    await expectRefused(() => upload(reader), 403, LACKS("files:write"));
    await expectRefused(
      () => post("/api/uploads", reader, { fileName: "big.bin" }),
      403,
      LACKS("files:write"),
    );
  });

  it("routes that manage the account need a sign-in: users, sessions, keys, logout", async () => {
    const { key, id } = await createKey(owner.token, [
      "todos:read",
      "todos:write",
      "files:write",
      "agents:connect",
    ]);
    const calls: [string, () => ReturnType<typeof api>][] = [
      ["list users", () => api("/api/users", { token: key })],
      ["read a user", () => api(`/api/users/${owner.userId}`, { token: key })],
      ["update yourself", () => post(`/api/users/${owner.userId}`, key, { name: "Key" })],
      ["delete yourself", () => post(`/api/users/${owner.userId}/delete`, key)],
      ["create a user", () => post("/api/users", key, {})],
      ["list keys", () => api("/api/keys", { token: key })],
      ["create a key", () => post("/api/keys", key, { name: "child", scopes: ["todos:read"] })],
      ["revoke a key", () => post(`/api/keys/${id}/revoke`, key)],
      ["list sessions", () => api("/api/auth/sessions", { token: key })],
      ["revoke a session", () => post(`/api/auth/sessions/${crypto.randomUUID()}/revoke`, key)],
      ["log out", () => post("/api/auth/logout", key)],
    ];
    for (const [label, call] of calls) {
      const before = await snapshotState();
      const res = await call();
      expect(res.status, label).toBe(403);
      expectError(res, 403, SIGN_IN_ONLY);
      expect(stateDiff(before, await snapshotState()), label).toBeNull();
    }
    // An unknown route is still a 404, not a 403.
    expectError(await api("/api/nothing-here", { token: key }), 404);
  });

  it("any key may ask who it belongs to and what it may do (GET /api/me)", async () => {
    const { key, id } = await createKey(owner.token, ["files:write"]);
    const data = expectData(await api("/api/me", { token: key }), 200, MeSchema);
    expect(data.user.id).toBe(owner.userId);
    expect(data.credential).toEqual({ kind: "api_key", keyId: id, scopes: ["files:write"] });
  });

  it("records when a key was last used", async () => {
    const { key, id } = await createKey(owner.token, ["todos:read"]);
    expect((await api("/api/todos", { token: key })).status).toBe(200);
    const row = await env.DB.prepare("SELECT lastUsedAt FROM api_keys_table WHERE id = ?").bind(id).first();
    expect(Date.now() - Date.parse(String(row?.lastUsedAt))).toBeLessThan(60_000);
  });
});

describe("K3: revoked, expired and unknown keys", () => {
  it("a revoked key is 401 at once; revoking again keeps the first time; another user's key is 404", async () => {
    const { key, id } = await createKey(owner.token, ["todos:read"]);
    expect((await api("/api/todos", { token: key })).status).toBe(200);
    const stranger = await signUp();
    await expectRefused(() => post(`/api/keys/${id}/revoke`, stranger.token), 404, "API key not found");
    expect((await api("/api/todos", { token: key })).status).toBe(200);

    const revoked = expectData(await post(`/api/keys/${id}/revoke`, owner.token), 200, ApiKeySchema);
    expect(revoked.revokedAt).not.toBeNull();
    const res = await api("/api/todos", { token: key });
    expectError(res, 401, "API key revoked");
    expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="api", error="invalid_token"');
    const again = expectData(await post(`/api/keys/${id}/revoke`, owner.token), 200, ApiKeySchema);
    expect(again.revokedAt).toBe(revoked.revokedAt);
    expectError(await post("/api/keys/999999999/revoke", owner.token), 404);
  });

  it("an expired key is 401; an unknown or malformed one too; a deleted user's key too", async () => {
    const { key, id } = await createKey(owner.token, ["todos:read"]);
    await env.DB.prepare("UPDATE api_keys_table SET expiresAt = ? WHERE id = ?").bind(isoAgo(1), id).run();
    expectError(await api("/api/todos", { token: key }), 401, "API key expired");
    expectError(await api("/api/todos", { token: `wsk_${"A".repeat(43)}` }), 401, "Invalid API key");
    expectError(await api("/api/todos", { token: "wsk_" }), 401, "Invalid API key");

    const leaving = await signUp();
    const { key: orphan } = await createKey(leaving.token, ["todos:read"]);
    await post(`/api/users/${leaving.userId}/delete`, leaving.token);
    expectError(await api("/api/todos", { token: orphan }), 401, "Invalid API key");
    expect(await countRows("api_keys_table", "userId", leaving.userId)).toBe(0);
  });

  it("a key outlives a password change (it is a separate credential, revoked on its own)", async () => {
    const user = await signUp();
    const { key } = await createKey(user.token, ["todos:read"]);
    const change = await post(`/api/users/${user.userId}`, user.token, {
      password: "another long password",
      currentPassword: user.password,
    });
    expect(change.status).toBe(200);
    expect((await api("/api/todos", { token: key })).status).toBe(200);
  });
});
