import { describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { createChat, getChat, listAllChats } from "../helpers/chats";
import { createKey } from "../helpers/credentials";
import { api, expectData, expectError, request } from "../helpers/http";
import { snapshotState, stateDiff } from "../helpers/state";
import { encodeChatCursor } from "../../src/chats/chat-cursor";
import { MAX_CHATS } from "../../src/chats/chats";
import { updateSummary } from "../../src/chats/chats.queries";
import { createDb } from "../../src/db/client";
import { ChatPageSchema, ChatSchema, DeletedChatSchema } from "../../src/routes/chats/chats.schemas";
import { dataDb } from "../helpers/shards";

/** `count` chats of `user` written straight into the index, with activity times `at(i)`. */
async function seedChats(user: SignedUpUser, count: number, at: (i: number) => string) {
  const ids = Array.from({ length: count }, (_, i) => `seed_${crypto.randomUUID().slice(0, 8)}_${i}`);
  const db = await dataDb({ userId: user.userId });
  await db.batch(
    ids.map((id, i) =>
      db
        .prepare("INSERT INTO chats_table (id, userId, lastActivityAt) VALUES (?, ?, ?)")
        .bind(id, user.userId, at(i)),
    ),
  );
  return ids;
}

const rename = (user: SignedUpUser, id: string, json: unknown) =>
  api(`/api/chats/${id}`, { method: "POST", token: user.token, json });
const remove = (user: SignedUpUser, id: string) =>
  api(`/api/chats/${id}/delete`, { method: "POST", token: user.token });

describe("the chat index: POST/GET /api/chats, rename, delete", () => {
  it("creates a chat with an id the server chose, then lists, reads and renames it", async () => {
    const alice = await signUp();
    const untitled = await createChat(alice);
    const named = await createChat(alice, { title: "  Lisbon trip  " });
    expect(untitled).toEqual({
      // The owner's id names the data database holding the chat's row.
      id: expect.stringMatching(new RegExp(`^chat_${alice.userId}_[A-Za-z0-9_-]{22}$`)),
      title: null,
      createdAt: expect.any(String),
      lastActivityAt: untitled.createdAt,
      lastMessageAt: null,
      preview: null,
      messageCount: 0,
    });
    expect(named.title).toBe("Lisbon trip");
    expect(named.id).not.toBe(untitled.id);
    expect((await listAllChats(alice)).map((c) => c.id).toSorted()).toEqual(
      [named.id, untitled.id].toSorted(),
    );
    expect(await getChat(alice, named.id)).toEqual(named);

    const renamed = expectData(await rename(alice, untitled.id, { title: "Groceries 🛒" }), 200, ChatSchema);
    expect(renamed).toEqual({ ...untitled, title: "Groceries 🛒" });
    expect((await getChat(alice, untitled.id)).title).toBe("Groceries 🛒");
  });

  it("lists most recent activity first, keyset-paged: no chat skipped or repeated, ties by id", async () => {
    const alice = await signUp();
    // Three chats share each time, so ties are ordered too.
    const ids = await seedChats(alice, 45, (i) =>
      new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3))).toISOString(),
    );
    const expected = ids
      .map((id, i) => ({ id, at: Math.floor(i / 3) }))
      .toSorted((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .map((c) => c.id);
    expect((await listAllChats(alice, 10)).map((c) => c.id)).toEqual(expected);
    expect((await listAllChats(alice, 100)).map((c) => c.id)).toEqual(expected);
  });

  it("M8, M10: deletes a chat: gone from the list and every route, a second delete is 404; its agent cannot bring the row back", async () => {
    const alice = await signUp();
    const [keep, doomed] = [await createChat(alice), await createChat(alice)];
    const deleted = expectData(await remove(alice, doomed.id), 200, DeletedChatSchema);
    expect(deleted).toEqual({ id: doomed.id, pending: false });
    expect((await listAllChats(alice)).map((c) => c.id)).toEqual([keep.id]);
    expectError(await api(`/api/chats/${doomed.id}`, { token: alice.token }), 404, "Chat not found");
    expectError(await rename(alice, doomed.id, { title: "back?" }), 404, "Chat not found");
    expectError(await remove(alice, doomed.id), 404, "Chat not found");
    // The deleted chat's agent, finishing a write of its summary late, updates nothing.
    const late = {
      messageCount: 9,
      preview: "late",
      lastMessageAt: doomed.createdAt,
      lastActivityAt: doomed.createdAt,
    };
    await updateSummary(createDb(await dataDb({ userId: alice.userId })), doomed.id, late);
    expectError(await api(`/api/chats/${doomed.id}`, { token: alice.token }), 404, "Chat not found");
  });

  it("M1: answers 404 for another user's chat everywhere, and changes nothing", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const chat = await createChat(alice, { title: "Alice's" });
    const before = await snapshotState();
    for (const id of [chat.id, "chat_AAAAAAAAAAAAAAAAAAAAAA", "user-1", "x"]) {
      expectError(await api(`/api/chats/${id}`, { token: bob.token }), 404, "Chat not found");
      expectError(await rename(bob, id, { title: "Bob's now" }), 404, "Chat not found");
      expectError(await remove(bob, id), 404, "Chat not found");
    }
    expect(await listAllChats(bob)).toEqual([]);
    expect(stateDiff(before, await snapshotState())).toBeNull();
    expect(await getChat(alice, chat.id)).toEqual(chat);
  });

  it("M5: rejects bad input with a 400 and writes nothing", async () => {
    const alice = await signUp();
    const chat = await createChat(alice);
    const before = await snapshotState();
    const badTitles = [
      { title: "" },
      { title: "   " },
      { title: 42 },
      { title: null },
      { title: ["a"] },
      { title: "x".repeat(81) },
      { title: "a\u0000b" },
      { title: "line\nbreak" },
      { title: "ok", extra: true },
    ];
    for (const json of badTitles) {
      expectError(await api("/api/chats", { method: "POST", token: alice.token, json }), 400);
      expectError(await rename(alice, chat.id, json), 400);
    }
    expectError(await rename(alice, chat.id, {}), 400);
    expectError(await rename(alice, chat.id, "not an object"), 400);
    for (const body of ["{", "[]", "null", '{"title":"a"'.repeat(2)]) {
      const res = await request("/api/chats", {
        method: "POST",
        headers: { Authorization: `Bearer ${alice.token}`, "Content-Type": "application/json" },
        body,
      });
      expect(res.status, body).toBe(400);
    }
    const someDate = "2026-01-01T00:00:00.000Z";
    for (const query of [
      "limit=0",
      "limit=101",
      "limit=x",
      "cursor=",
      "cursor=abc",
      "cursor=%00",
      `cursor=${"A".repeat(200)}`,
      `cursor=${encodeChatCursor({ lastActivityAt: "yesterday", id: chat.id })}`,
      `cursor=${encodeChatCursor({ lastActivityAt: someDate, id: "a b" })}`,
      `cursor=${encodeChatCursor({ lastActivityAt: someDate, id: chat.id })}=`,
    ]) {
      expectError(await api(`/api/chats?${query}`, { token: alice.token }), 400);
    }
    for (const id of ["a.b", "x".repeat(65), "%20", "a%2Fb"]) {
      expectError(await api(`/api/chats/${id}`, { token: alice.token }), 400);
      expectError(await remove(alice, id), 400);
    }
    expect(stateDiff(before, await snapshotState())).toBeNull();
  });

  it("M6: needs a sign-in or an API key with chats:read / chats:write; agents:connect alone reads and renames nothing; deleting needs a sign-in", async () => {
    const alice = await signUp();
    const [reader, writer, connect] = [
      await createKey(alice.token, ["chats:read"]),
      await createKey(alice.token, ["chats:write"]),
      await createKey(alice.token, ["agents:connect", "todos:read", "todos:write", "files:read"]),
    ];
    expectError(await api("/api/chats"), 401);
    const made = expectData(
      await api("/api/chats", { method: "POST", json: { title: "Secret plans" }, token: writer.key }),
      201,
      ChatSchema,
    );
    const asReader = { token: reader.key };
    expect(expectData(await api("/api/chats", asReader), 200, ChatPageSchema).items.map((c) => c.id)).toEqual(
      [made.id],
    );
    expectData(await api(`/api/chats/${made.id}`, asReader), 200, ChatSchema);
    expectData(
      await api(`/api/chats/${made.id}`, { method: "POST", json: { title: "By key" }, token: writer.key }),
      200,
      ChatSchema,
    );
    for (const key of [reader, writer]) {
      expectError(
        await api(`/api/chats/${made.id}/delete`, { method: "POST", token: key.key }),
        403,
        "This route needs a signed-in session; API keys cannot use it",
      );
    }
    // A key that may open a chat learns no titles or previews and renames nothing.
    const refusals = [
      [connect, "/api/chats", {}, "chats:read"],
      [connect, `/api/chats/${made.id}`, {}, "chats:read"],
      [connect, "/api/ai/usage", {}, "chats:read"],
      [connect, "/api/chats", { method: "POST", json: {} }, "chats:write"],
      [connect, `/api/chats/${made.id}`, { method: "POST", json: { title: "Taken" } }, "chats:write"],
      [reader, "/api/chats", { method: "POST", json: {} }, "chats:write"],
      [reader, `/api/chats/${made.id}`, { method: "POST", json: { title: "Taken" } }, "chats:write"],
      [writer, "/api/chats", {}, "chats:read"],
    ] as const;
    for (const [key, path, init, scope] of refusals) {
      const res = await api(path, { ...init, token: key.key });
      expectError(res, 403, `This API key lacks the scope ${scope}`);
      expect(JSON.stringify(res.body)).not.toContain("Secret plans");
    }
    expect((await getChat(alice, made.id)).title).toBe("By key");
    expect(await listAllChats(alice)).toHaveLength(1);
    expectData(await remove(alice, made.id), 200, DeletedChatSchema);
  });

  it("replays a create with the same Idempotency-Key: one chat", async () => {
    const alice = await signUp();
    const key = crypto.randomUUID();
    const send = () =>
      api("/api/chats", {
        method: "POST",
        token: alice.token,
        json: { title: "Once" },
        headers: { "Idempotency-Key": key },
      });
    const first = expectData(await send(), 201, ChatSchema);
    const again = await send();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(expectData(again, 201, ChatSchema)).toEqual(first);
    expect(await listAllChats(alice)).toHaveLength(1);
  });

  it(`M7: keeps at most ${MAX_CHATS} chats a user: the next create is 409 and writes nothing`, async () => {
    const alice = await signUp();
    const db = await dataDb({ userId: alice.userId });
    await db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO chats_table (id, userId) SELECT 'cap_' || ? || '_' || i, ? FROM n`,
      )
      .bind(MAX_CHATS, alice.userId, alice.userId)
      .run();
    expectError(
      await api("/api/chats", { method: "POST", token: alice.token, json: {} }),
      409,
      `You have ${MAX_CHATS} chats, the most one user may keep: delete some first`,
    );
    const count = await db
      .prepare("SELECT count(*) AS n FROM chats_table WHERE userId = ?")
      .bind(alice.userId)
      .first<{ n: number }>();
    expect(count?.n).toBe(MAX_CHATS);
  });
});
