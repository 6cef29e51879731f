import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { dataDb, onShardOf } from "../helpers/shards";
import { jwtSecret } from "../../src/auth/tokens";
import { bufferedFingerprint } from "../../src/http/body-fingerprint";
import { purgeExpiredKeys } from "../../src/idempotency/idempotency";
import { seal } from "../../src/idempotency/sealed-answers";
import { signIn, signUp, type SignedUpUser } from "../helpers/auth";
import { createKey, isoAgo, sessionOf } from "../helpers/credentials";
import { withFaults } from "../helpers/faults";
import { api, expectError, type ApiInit } from "../helpers/http";
import { multipartBody } from "../helpers/multipart";
import { fetchWithEnv } from "../helpers/storage";
import { storedKey, updated } from "../helpers/todos";
import { putPart } from "../helpers/uploads";

const withKey = (user: SignedUpUser, key: string, init: ApiInit = {}): ApiInit => ({
  method: "POST",
  ...init,
  token: user.token,
  headers: { ...(init.headers as Record<string, string>), "Idempotency-Key": key },
});

const todoCount = async (userId: number) =>
  (await (
    await dataDb({ userId })
  )
    .prepare("SELECT COUNT(*) AS n FROM todos_table WHERE userId = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

const keyRow = async (userId: number, key: string) =>
  (await dataDb({ userId }))
    .prepare("SELECT * FROM idempotency_keys_table WHERE userId = ? AND key = ?")
    .bind(userId, key)
    .first<any>();

describe("Idempotency-Key on POST /api/todos", () => {
  it("C4: the same key and body answers the first answer again, with Idempotent-Replayed, and writes once", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const first = await api("/api/todos", withKey(alice, key, { json: { title: "Once" } }));
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await api("/api/todos", withKey(alice, key, { json: { title: "Once" } }));
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("ETag")).toBe(first.headers.get("ETag"));
    expect(again.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(await todoCount(alice.userId)).toBe(1);
  });

  it("C5: the same key with another body is 422 and writes nothing", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    expect((await api("/api/todos", withKey(alice, key, { json: { title: "A" } }))).status).toBe(201);
    expectError(
      await api("/api/todos", withKey(alice, key, { json: { title: "B" } })),
      422,
      /another request/,
    );
    expect(await todoCount(alice.userId)).toBe(1);
  });

  it("C5, C6: a key still in flight is 409 with Retry-After; a claim older than the bound is taken over", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const insert = async (createdAt: string) =>
      (await dataDb({ userId: alice.userId }))
        .prepare(
          "INSERT INTO idempotency_keys_table (userId, route, key, state, createdAt) VALUES (?, ?, ?, 'in_flight', ?)",
        )
        .bind(alice.userId, `POST /api/todos session:${sessionOf(alice.token)}`, key, createdAt)
        .run();
    await insert(new Date().toISOString());
    const busy = await api("/api/todos", withKey(alice, key, { json: { title: "x" } }));
    expectError(busy, 409, /still in progress/);
    expect(busy.headers.get("Retry-After")).toBe("60");
    expect(await todoCount(alice.userId)).toBe(0);
    // A request that died 61 s ago no longer holds the key.
    await (
      await dataDb({ userId: alice.userId })
    )
      .prepare("DELETE FROM idempotency_keys_table WHERE key = ?")
      .bind(key)
      .run();
    await insert(isoAgo(61));
    expect((await api("/api/todos", withKey(alice, key, { json: { title: "x" } }))).status).toBe(201);
    expect(await todoCount(alice.userId)).toBe(1);
  });

  it("two identical requests at once: one runs, the other is 409 or the replay; one todo", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      [1, 2].map(() => api("/api/todos", withKey(alice, key, { json: { title: "Race" } }))),
    );
    expect(answers.map((a) => a.status).toSorted()).toEqual(expect.arrayContaining([201]));
    for (const a of answers) expect([201, 409]).toContain(a.status);
    expect(await todoCount(alice.userId)).toBe(1);
  });

  it("C6: a failed request frees its key: the retry runs", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    expectError(await api("/api/todos", withKey(alice, key, { json: { title: "" } })), 400);
    expect(await keyRow(alice.userId, key)).toBeNull();
    expect((await api("/api/todos", withKey(alice, key, { json: { title: "fixed" } }))).status).toBe(201);
  });

  it("keys are per user; a malformed key is 400; kept answers expire after 24 h (cron purge, injected clock)", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const key = crypto.randomUUID();
    await api("/api/todos", withKey(alice, key, { json: { title: "Alice's" } }));
    const bobs = await api("/api/todos", withKey(bob, key, { json: { title: "Alice's" } }));
    expect(bobs.status).toBe(201);
    expect(bobs.headers.get("Idempotent-Replayed")).toBeNull();
    for (const bad of ["has space", "a".repeat(256), "é"]) {
      expectError(
        await api("/api/todos", withKey(alice, bad, { json: { title: "x" } })),
        400,
        /Idempotency-Key/,
      );
    }
    // 25 h later the key is free again, and the hourly purge removes the row.
    await (
      await dataDb({ userId: alice.userId })
    )
      .prepare("UPDATE idempotency_keys_table SET createdAt = ? WHERE userId = ? AND key = ?")
      .bind(isoAgo(25 * 3600), alice.userId, key)
      .run();
    const fresh = await api("/api/todos", withKey(alice, key, { json: { title: "new" } }));
    expect(fresh.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await todoCount(alice.userId)).toBe(2);
    // The hourly purge, its clock 25 h ahead: the row goes.
    expect(
      await purgeExpiredKeys(
        createDb(await dataDb({ userId: alice.userId })),
        new Date(Date.now() + 25 * 3_600_000),
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(await keyRow(alice.userId, key)).toBeNull();
  });
});

describe("Idempotency-Key taken in the create's own batch", () => {
  it("keeps the created todo with its attachments, done, never in flight; replays it as created, even after an edit", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const json = { title: "With files", completed: true, attachments: [{ fileKey: await storedKey() }] };
    const first = await api("/api/todos", withKey(alice, key, { json }));
    expect(first.status).toBe(201);
    const row = await keyRow(alice.userId, key);
    expect(row).toMatchObject({ state: "done", body: null });
    expect(JSON.parse(row.result).attachments).toHaveLength(1);
    const todo = (first.body as any).data;
    expect((await updated(alice, todo.id, { title: "Edited since" })).version).toBe(2);
    const again = await api("/api/todos", withKey(alice, key, { json }));
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(again.headers.get("ETag")).toBe(first.headers.get("ETag"));
    expect(await todoCount(alice.userId)).toBe(1);
  });

  it("a create that fails leaves neither the todo nor the key", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const res = await fetchWithEnv(
      "/api/todos",
      {
        method: "POST",
        token: alice.token,
        body: JSON.stringify({ title: "atomic", attachments: [{ fileKey: await storedKey() }] }),
        headers: { "Content-Type": "application/json", "Idempotency-Key": key },
      },
      // The attachment insert (the batch's second statement) twice: a real UNIQUE failure mid-batch.
      await onShardOf({ userId: alice.userId }, (shard) =>
        withFaults(shard, {
          batch: (s: D1PreparedStatement[]) => shard.batch([...s.slice(0, 2), ...s.slice(1)]),
        }),
      ),
    );
    expect(res.status).toBe(500);
    expect(await todoCount(alice.userId)).toBe(0);
    expect(await keyRow(alice.userId, key)).toBeNull();
  });

  it("an answer kept sealed before creates took keys in their batch still replays", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const request = JSON.stringify({ title: "Kept the old way" });
    const body = JSON.stringify({ success: true, data: { id: 1, title: "Kept the old way" } });
    const fingerprint = await bufferedFingerprint(
      "POST",
      "/api/todos",
      await new Response(request).arrayBuffer(),
    );
    await (
      await dataDb({ userId: alice.userId })
    )
      .prepare(
        "INSERT INTO idempotency_keys_table (userId, route, key, fingerprint, state, status, headers, body, createdAt) VALUES (?, ?, ?, ?, 'done', 201, ?, ?, ?)",
      )
      .bind(
        alice.userId,
        `POST /api/todos session:${sessionOf(alice.token)}`,
        key,
        fingerprint,
        JSON.stringify({ etag: '"todo-1-v1"' }),
        await seal(jwtSecret(env), body),
        isoAgo(60),
      )
      .run();
    const again = await api(
      "/api/todos",
      withKey(alice, key, { body: request, headers: { "Content-Type": "application/json" } }),
    );
    expect(again.status).toBe(201);
    expect(again.text).toBe(body);
    expect(again.headers.get("ETag")).toBe('"todo-1-v1"');
    expect(await todoCount(alice.userId)).toBe(0);
  });
});

/** The same form each time, under a new boundary (as a browser rebuilds it). */
const form = (text: string) =>
  multipartBody([
    { name: "directory", body: "idem" },
    { name: "file", filename: "a.txt", contentType: "text/plain", body: text },
  ]);

describe("Idempotency-Key on the other creating routes", () => {
  it("C4: POST /api/upload: a rebuilt form (new boundary) replays; other bytes are 422; one object", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const send = (built: ReturnType<typeof form>) =>
      api(
        "/api/upload",
        withKey(alice, key, { body: built.body, headers: { "Content-Type": built.contentType } }),
      );
    const first = await send(form("hello"));
    expect(first.status).toBe(201);
    const again = await send(form("hello"));
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expectError(await send(form("other bytes")), 422);
    const listed = await env.R2_BUCKET.list({ prefix: "idem/" });
    expect(listed.objects.filter((o) => o.key === (first.body as any).data.key)).toHaveLength(1);
    const records = await (
      await dataDb({ userId: alice.userId })
    )
      .prepare("SELECT COUNT(*) AS n FROM files_table WHERE userId = ?")
      .bind(alice.userId)
      .first<{ n: number }>();
    expect(records!.n).toBe(1);
  });

  it("POST /api/uploads and .../complete replay their answers", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const body = { fileName: "big.bin", size: 3 };
    const opened = await api("/api/uploads", withKey(alice, key, { json: body }));
    expect(opened.status).toBe(201);
    const reopened = await api("/api/uploads", withKey(alice, key, { json: body }));
    expect(reopened.body).toEqual(opened.body);
    const { uploadId } = (opened.body as any).data;
    expect((await putPart(alice.token, uploadId, 1, "abc")).status).toBe(200);
    const done = await api(`/api/uploads/${uploadId}/complete`, withKey(alice, key));
    expect(done.status).toBe(201);
    const redone = await api(`/api/uploads/${uploadId}/complete`, withKey(alice, key));
    expect(redone.headers.get("Idempotent-Replayed")).toBe("true");
    expect(redone.body).toEqual(done.body);
    // Without the key the upload is gone (completed): 404, as before.
    expect(
      (await api(`/api/uploads/${uploadId}/complete`, { method: "POST", token: alice.token })).status,
    ).toBe(404);
  });

  it("C4, C7: POST /api/keys and /api/agents/tickets replay; the kept answer holds no readable secret", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const body = { name: "retry-safe", scopes: ["todos:read"] };
    const created = await api("/api/keys", withKey(alice, key, { json: body }));
    expect(created.status).toBe(201);
    const replayed = await api("/api/keys", withKey(alice, key, { json: body }));
    expect(replayed.body).toEqual(created.body);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys_table WHERE userId = ?")
      .bind(alice.userId)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
    const secret = (created.body as any).data.key as string;
    const row = await keyRow(alice.userId, key);
    expect(row.body).not.toContain(secret);
    expect(row.body).not.toContain("retry-safe");

    const ticketKey = crypto.randomUUID();
    const target = { agent: "todo-feed-agent", name: `user-${alice.userId}` };
    const ticket = await api("/api/agents/tickets", withKey(alice, ticketKey, { json: target }));
    expect(ticket.status).toBe(201);
    const ticketAgain = await api("/api/agents/tickets", withKey(alice, ticketKey, { json: target }));
    expect(ticketAgain.body).toEqual(ticket.body);
    expect(ticketAgain.headers.get("Idempotent-Replayed")).toBe("true");
  });
});

describe("Idempotency-Key belongs to the credential that sent it", () => {
  it("C13: an API key or another session sending a session's key runs its own request; never the session's ticket", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const chat = { agent: "chat-agent", name: `user-${alice.userId}` };
    const mint = (token: string, target: object = chat) =>
      api("/api/agents/tickets", {
        method: "POST",
        token,
        headers: { "Idempotency-Key": key },
        json: target,
      });
    const minted = await mint(alice.token);
    expect(minted.status).toBe(201);
    // A key with agents:connect alone may not open a chat: its own request is refused, nothing replayed.
    const connectOnly = await createKey(alice.token, ["agents:connect"]);
    const refused = await mint(connectOnly.key);
    expectError(refused, 403);
    expect(refused.headers.get("Idempotent-Replayed")).toBeNull();
    const chatKey = await createKey(alice.token, [
      "agents:connect",
      "todos:read",
      "todos:write",
      "files:read",
    ]);
    const second = await signIn(alice.username, alice.password);
    for (const token of [chatKey.key, second.token]) {
      const other = await mint(token);
      expect(other.status).toBe(201);
      expect(other.headers.get("Idempotent-Replayed")).toBeNull();
      expect((other.body as any).data.ticket).not.toBe((minted.body as any).data.ticket);
      // Each credential replays its own answer.
      const again = await mint(token);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(again.body).toEqual(other.body);
    }
    expect((await mint(alice.token)).body).toEqual(minted.body);
  });
});
