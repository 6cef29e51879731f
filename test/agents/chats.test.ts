// Chats of the index (ids from POST /api/chats) at the agents gate, in their Durable Object and over
// RPC. The agents here run in public mode (AGENTS_REQUIRE_AUTH off): a chat of the index is private anyway.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { TOOL_DONE_TEXT } from "../fakes/workers-ai";
import { signUp, type SignedUpUser } from "../helpers/auth";
import {
  AUTH_ON,
  chatPath,
  fetchWith,
  modelSaw,
  requestTicket,
  sendTurn,
  turnOutcome,
  upgradeWith,
} from "../helpers/agents";
import { chatStorage, createChat, getChat, listAllChats, openChat, WIPED } from "../helpers/chats";
import { api, expectError } from "../helpers/http";
import { connectWS } from "../helpers/ws";
import { fallbackTitle } from "../../src/chats/chat-titles";
import { reminderFor } from "../../src/todos/reminders";
import type { ChatAgent } from "../../src/agents/chat-agent";
import { countEverywhere } from "../helpers/shards";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function transcriptOf(user: SignedUpUser, id: string) {
  return api<UIMessage[]>(`${chatPath(id)}/get-messages`, { token: user.token });
}

/** One answered turn in a chat of `user`'s index; the socket stays open. */
async function chatWithTurn(user: SignedUpUser, text = "Hello there") {
  const chat = await createChat(user);
  const socket = await openChat(user, chat.id);
  sendTurn(socket, "t1", text);
  expect((await turnOutcome(socket, "t1")).error).toBeUndefined();
  return { chat, socket };
}

/** The chat's row once the Durable Object's index write (off the turn's path) has landed. */
function rowWhen(
  user: SignedUpUser,
  id: string,
  check: (chat: Awaited<ReturnType<typeof getChat>>) => boolean,
) {
  return expect.poll(async () => check(await getChat(user, id)), { timeout: 5_000 }).toBe(true);
}

/** A call of test/workers/rpc-consumer.ts, another Worker bound to ChatsService. */
const consumer = async (path: string) => (await env.RPC_CONSUMER.fetch(`http://consumer${path}`)).json<any>();

describe("a chat of the index at the agents gate", () => {
  it("M1, M2, M4: only its owner reaches it, whatever AGENTS_REQUIRE_AUTH says; anyone else finds no chat (404)", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const chat = await createChat(alice);
    const aliceTicket = (await requestTicket(alice.token, "chat-agent", chat.id)).body.data.ticket;
    for (const gate of [{}, AUTH_ON]) {
      // No credential: the gate asks for one, as for the todo feed.
      expect((await upgradeWith(gate, chatPath(chat.id))).status).toBe(401);
      expect((await fetchWith(gate, `${chatPath(chat.id)}/get-messages`)).status).toBe(401);
      for (const res of [
        await upgradeWith(gate, `${chatPath(chat.id)}?token=${bob.token}`),
        await fetchWith(gate, `${chatPath(chat.id)}/get-messages`, { headers: bearer(bob.token) }),
        await fetchWith(gate, `${chatPath("chat_AAAAAAAAAAAAAAAAAAAAAA")}/get-messages`, {
          headers: bearer(alice.token),
        }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.webSocket).toBeNull();
        expect(await res.json()).toEqual({ success: false, error: { message: "Chat not found" } });
      }
      expect(
        (await fetchWith(gate, `${chatPath(chat.id)}/get-messages`, { headers: bearer(alice.token) })).status,
      ).toBe(200);
    }
    // A ticket is for the owner's chats only, and names one chat: Alice's does not open another id.
    expectError(await requestTicket(bob.token, "chat-agent", chat.id), 404, "Chat not found");
    const other = await createChat(alice);
    expect((await upgradeWith({}, `${chatPath(other.id)}?ticket=${aliceTicket}`)).status).toBe(401);
    const socket = await connectWS(`${chatPath(chat.id)}?ticket=${aliceTicket}`);
    socket.close();
  });
});

describe("the chat keeps its row of the index", () => {
  it("a turn updates count, preview and activity, and moves the chat to the top; a clear empties them", async () => {
    const alice = await signUp();
    const { chat, socket } = await chatWithTurn(alice);
    const newer = await createChat(alice);
    expect((await listAllChats(alice)).map((c) => c.id)).toEqual([newer.id, chat.id]);

    sendTurn(socket, "t2", "And again", (await transcriptOf(alice, chat.id)).body);
    expect((await turnOutcome(socket, "t2")).error).toBeUndefined();
    await rowWhen(alice, chat.id, (row) => row.messageCount === 4);
    const row = await getChat(alice, chat.id);
    expect(row.preview).toBe("Hello from the scripted model.");
    expect(Date.parse(row.lastMessageAt!)).toBeGreaterThan(Date.parse(newer.createdAt));
    expect(row.lastActivityAt).toBe(row.lastMessageAt);
    expect((await listAllChats(alice)).map((c) => c.id)).toEqual([chat.id, newer.id]);

    socket.send({ type: "cf_agent_chat_clear" });
    await rowWhen(alice, chat.id, (r) => r.messageCount === 0);
    expect(await getChat(alice, chat.id)).toMatchObject({ preview: null, lastMessageAt: null });
    socket.close();
  });

  it("the first exchange titles an untitled chat, and its open sockets hear the title", async () => {
    const alice = await signUp();
    const { chat, socket } = await chatWithTurn(
      alice,
      '[script:title:"Trip to Lisbon."] Plan a weekend trip',
    );
    const frame = await socket.waitFor((d) => d?.type === "chat_title");
    expect(frame.data).toEqual({ type: "chat_title", title: "Trip to Lisbon" });
    expect((await getChat(alice, chat.id)).title).toBe("Trip to Lisbon");
    // Later turns keep it.
    sendTurn(socket, "t2", "[script:title:Another] more", (await transcriptOf(alice, chat.id)).body);
    await turnOutcome(socket, "t2");
    await rowWhen(alice, chat.id, (row) => row.messageCount === 4);
    expect((await getChat(alice, chat.id)).title).toBe("Trip to Lisbon");
    socket.close();
  });

  it("M12: falls back to a cut of the first message when the model fails", async () => {
    const alice = await signUp();
    const text = "[script:title-fail] Please help me plan the quarterly budget review for the whole team";
    const { chat, socket } = await chatWithTurn(alice, text);
    await rowWhen(alice, chat.id, (row) => row.title !== null);
    expect((await getChat(alice, chat.id)).title).toBe(fallbackTitle(text));
    expect(fallbackTitle(text)).toBe("[script:title-fail] Please help me plan the…");
    socket.close();
  });

  it("a failed turn never titles the chat: the first answered one does, from its own exchange", async () => {
    const alice = await signUp();
    const chat = await createChat(alice);
    const socket = await openChat(alice, chat.id);
    // Every model refuses (as with no model at all): an error, and no title from the failed message.
    sendTurn(socket, "t1", "[script:refuse:*] [script:title:From the failure] Plan a trip");
    expect((await turnOutcome(socket, "t1")).error).toBe("The model failed to answer. Try again.");
    await rowWhen(alice, chat.id, (row) => row.messageCount >= 1);

    const history = (await transcriptOf(alice, chat.id)).body;
    sendTurn(socket, "t2", "[script:title:Trip to Porto] Plan a trip to Porto", history);
    expect((await turnOutcome(socket, "t2")).error).toBeUndefined();
    const frame = await socket.waitFor((d) => d?.type === "chat_title");
    expect(frame.data).toEqual({ type: "chat_title", title: "Trip to Porto" });
    expect(socket.frames.filter((f) => f.data?.type === "chat_title")).toHaveLength(1);
    expect((await getChat(alice, chat.id)).title).toBe("Trip to Porto");
    socket.close();
  });

  it("M12: a title its owner gave wins: the model is not asked", async () => {
    const alice = await signUp();
    const chat = await createChat(alice);
    expect(
      (await api(`/api/chats/${chat.id}`, { method: "POST", token: alice.token, json: { title: "Mine" } }))
        .status,
    ).toBe(200);
    const marker = `[script:title:Not yours ${crypto.randomUUID()}]`;
    const socket = await openChat(alice, chat.id);
    sendTurn(socket, "t1", marker);
    await turnOutcome(socket, "t1");
    await rowWhen(alice, chat.id, (row) => row.messageCount === 2);
    expect((await getChat(alice, chat.id)).title).toBe("Mine");
    // The turn itself saw the marker; only a title request would have carried it in an "User: ..." prompt.
    expect(await modelSaw(`User: ${marker}`)).toBe(false);
    socket.close();
  });

  it("gives the model its owner's todo tools (only the owner reaches it)", async () => {
    const alice = await signUp();
    await api("/api/todos", { method: "POST", token: alice.token, json: { title: "Existing" } });
    const { chat, socket } = await chatWithTurn(alice, '[script:tool:listTodos {"completed":false}]');
    await expect
      .poll(async () => JSON.stringify((await transcriptOf(alice, chat.id)).body))
      .toContain(TOOL_DONE_TEXT.join(""));
    expect(JSON.stringify((await transcriptOf(alice, chat.id)).body)).toContain('"title":"Existing"');
    socket.close();
  });
});

describe("chats outside the index", () => {
  it("M11: in public mode, a chat named after a user is not anyone's to write: a socket without sign-in is 401", async () => {
    const alice = await signUp();
    await expect(connectWS(chatPath(`user-${alice.userId}-public`))).rejects.toThrow(/401/);
    const { chat, socket: mine } = await chatWithTurn(alice);
    mine.close();
    await rowWhen(alice, chat.id, (row) => row.messageCount === 2);
    expect((await listAllChats(alice)).map((c) => c.id)).toEqual([chat.id]);
  });
});

describe("deleting a chat", () => {
  it("M8: wipes its Durable Object (messages, schedules, alarm) and closes its sockets; it is then 404 everywhere", async () => {
    const alice = await signUp();
    const { chat, socket } = await chatWithTurn(alice);
    // A pending reminder in this chat: the alarm is set.
    const due = new Date(Date.now() + 3_600_000).toISOString();
    await env.ChatAgent.getByName(chat.id).setTodoReminder(
      1,
      reminderFor({ id: 1, userId: alice.userId, title: "x", scheduleAt: due, completed: false }),
      1,
    );
    const before = await chatStorage(chat.id);
    expect(before.rows).toMatchObject({ cf_agents_session_messages: 2 });
    expect(before.alarm).not.toBeNull();
    const ticket = (await requestTicket(alice.token, "chat-agent", chat.id)).body.data.ticket;

    expect((await api(`/api/chats/${chat.id}/delete`, { method: "POST", token: alice.token })).body).toEqual({
      success: true,
      data: { id: chat.id, pending: false },
    });
    expect(await socket.closed).toBeGreaterThan(1000);
    expect(await chatStorage(chat.id)).toEqual(WIPED);
    expect((await upgradeWith({}, `${chatPath(chat.id)}?ticket=${ticket}`)).status).toBe(404);
    expectError(await transcriptOf(alice, chat.id), 404, "Chat not found");
    expectError(await requestTicket(alice.token, "chat-agent", chat.id), 404, "Chat not found");
    expect(
      await countEverywhere("SELECT count(*) AS n FROM pending_agent_wipes_table WHERE name = ?", chat.id),
    ).toBe(0);
  });
});

describe("a deleted chat reached anyway", () => {
  it("M10: its agent, finding its row gone on its next change, wipes itself", async () => {
    const alice = await signUp();
    const chat = await createChat(alice);
    expect((await api(`/api/chats/${chat.id}/delete`, { method: "POST", token: alice.token })).status).toBe(
      200,
    );
    // As if another isolate's gate still knew the chat (its owner lookup lives 2 s there): a message lands.
    await runInDurableObject(env.ChatAgent.getByName(chat.id), async (agent: ChatAgent) => {
      await agent.persistMessages([
        { id: "late", role: "user", parts: [{ type: "text", text: "Too late" }] },
      ]);
    });
    await expect.poll(() => chatStorage(chat.id), { timeout: 5_000 }).toEqual(WIPED);
    expectError(await api(`/api/chats/${chat.id}`, { token: alice.token }), 404, "Chat not found");
  });
});

describe("other Workers, over RPC (ChatsService)", () => {
  it("M1: list a user's chats and read one's messages, under the same ownership rule", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const { chat, socket } = await chatWithTurn(alice);
    socket.close();
    const older = await createChat(alice, { title: "Older" });
    const listed = await consumer(`/chats?user=${alice.userId}&limit=1`);
    expect(listed.result.items.map((c: { id: string }) => c.id)).toEqual([older.id]);
    const rest = await consumer(`/chats?user=${alice.userId}&cursor=${listed.result.nextCursor}`);
    expect(rest.result).toEqual({ items: [expect.objectContaining({ id: chat.id })], nextCursor: null });

    const messages = (await consumer(`/chat-messages?user=${alice.userId}&chat=${chat.id}`)).result;
    expect(messages).toEqual((await transcriptOf(alice, chat.id)).body);
    expect(messages.map((m: UIMessage) => m.role)).toEqual(["user", "assistant"]);
    expect((await consumer(`/chat?user=${alice.userId}&chat=${chat.id}`)).result).toMatchObject({
      id: chat.id,
    });

    // Bob's user id reads nothing of Alice's.
    expect((await consumer(`/chats?user=${bob.userId}`)).result).toEqual({ items: [], nextCursor: null });
    expect((await consumer(`/chat?user=${bob.userId}&chat=${chat.id}`)).result).toBeNull();
    expect((await consumer(`/chat-messages?user=${bob.userId}&chat=${chat.id}`)).result).toBeNull();
  });

  it("refuses bad arguments with an error naming them", async () => {
    expect(await consumer("/chats?user=0")).toEqual({ error: "userId must be a positive integer" });
    expect(await consumer("/chats?user=1&limit=500")).toEqual({
      error: "limit must be an integer from 1 to 100",
    });
    expect(await consumer("/chats?user=1&cursor=nope")).toEqual({
      error: "Invalid cursor: pass a nextCursor as given",
    });
    expect(await consumer("/chat-messages?user=1.5&chat=x")).toEqual({
      error: "userId must be a positive integer",
    });
  });
});
