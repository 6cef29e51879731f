// Runs with AGENTS_REQUIRE_AUTH=true (project "workers-owned"): chats named `user-<id>[-<suffix>]` belong
// to that user and enter the index as they are used; deleting the user wipes every agent of theirs.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { chatPath, sendTurn, turnOutcome } from "../helpers/agents";
import {
  chatStorage,
  createChat,
  feedStorage,
  getChat,
  listAllChats,
  openChat,
  WIPED,
} from "../helpers/chats";
import { api, expectData } from "../helpers/http";
import { connectWS } from "../helpers/ws";
import { DeletedUserSchema } from "../../src/routes/users/users.schemas";
import { DeletedChatSchema } from "../../src/routes/chats/chats.schemas";

/** One answered turn in the chat `name` of `user`, opened by name with their login token. */
async function turnByName(user: SignedUpUser, name: string, text = "Hello by name") {
  const socket = await connectWS(`${chatPath(name)}?token=${user.token}`);
  sendTurn(socket, "n1", text);
  expect((await turnOutcome(socket, "n1")).error).toBeUndefined();
  socket.close();
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe("chats named user-<id>[-<suffix>] with sign-in on", () => {
  it("M9: enter their owner's index on their first turn and keep working by name; deleting one wipes it, and the name opens a new, empty chat", async () => {
    const alice = await signUp();
    const name = `user-${alice.userId}-travel`;
    await turnByName(alice, name, "[script:title:Travel plans] Where to go?");
    await expect.poll(async () => (await listAllChats(alice)).map((c) => c.id)).toEqual([name]);
    await expect.poll(async () => (await getChat(alice, name)).title).toBe("Travel plans");
    expect(await getChat(alice, name)).toMatchObject({ messageCount: 2 });

    expect(
      expectData(
        await api(`/api/chats/${name}/delete`, { method: "POST", token: alice.token }),
        200,
        DeletedChatSchema,
      ),
    ).toEqual({ id: name, pending: false });
    expect(await chatStorage(name)).toEqual(WIPED);
    expect(await listAllChats(alice)).toEqual([]);
    // The name still works for its owner: a new, empty chat, back in the index once used.
    const res = await api(`${chatPath(name)}/get-messages`, { token: alice.token });
    expect(res.body).toEqual([]);
  });
});

describe("deleting a user wipes every agent of theirs", () => {
  it("X5: their chats (by id and by name), their own chat with its pending reminders, and their todo feed", async () => {
    const alice = await signUp();
    const byName = `user-${alice.userId}-notes`;
    const own = `user-${alice.userId}`;
    const chat = await createChat(alice);
    const socket = await openChat(alice, chat.id);
    sendTurn(socket, "t1", "Hello by id");
    expect((await turnOutcome(socket, "t1")).error).toBeUndefined();
    socket.close();
    await turnByName(alice, byName);
    // A todo write fills the feed; a future scheduleAt sets a reminder (an alarm) in `user-<id>`.
    await api("/api/todos", {
      method: "POST",
      token: alice.token,
      json: { title: "Later", scheduleAt: inAnHour() },
    });
    await expect.poll(async () => (await listAllChats(alice)).length).toBe(2);
    await expect.poll(async () => (await feedStorage(own)).rows).toMatchObject({ feed_events: 1 });
    expect((await chatStorage(own)).alarm).not.toBeNull();
    expect((await chatStorage(chat.id)).rows).toMatchObject({ cf_agents_session_messages: 2 });
    expect((await chatStorage(byName)).rows).toMatchObject({ cf_agents_session_messages: 2 });

    const res = await api(`/api/users/${alice.userId}/delete`, { method: "POST", token: alice.token });
    expect(expectData(res, 200, DeletedUserSchema).erasure.agents).toEqual({ instances: 4, pending: false });
    for (const name of [chat.id, byName, own]) expect(await chatStorage(name), name).toEqual(WIPED);
    expect(await feedStorage(own)).toEqual(WIPED);
    const left = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM chats_table WHERE userId = ?1) + (SELECT count(*) FROM pending_agent_wipes_table) AS n",
    )
      .bind(alice.userId)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
