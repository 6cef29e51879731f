// With AGENTS_REQUIRE_AUTH off, the private instances (a todo feed, a chat of the index) still take a
// credential, and their sockets end with it (src/agents/socket-guard.ts). test/owned covers every path.
import { describe, expect, it } from "vitest";
import { signIn, signUp } from "../helpers/auth";
import { createChat, openChat } from "../helpers/chats";
import { sessionOf } from "../helpers/credentials";
import { isTodoEvent, openFeed } from "../helpers/feed";
import { api } from "../helpers/http";
import { createTodo } from "../helpers/todos";
import { connectWS, freshName } from "../helpers/ws";

const CREDENTIAL_ENDED = 4401;

async function closedWithin(closed: Promise<number>, ms: number): Promise<number | "open"> {
  return Promise.race([closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms))]);
}

describe("private instances' sockets end with their credential (AGENTS_REQUIRE_AUTH off)", () => {
  it("G19: logout closes the live feed within 1 s, and no later write reaches it", async () => {
    const user = await signUp();
    const other = await signIn(user.username, user.password);
    const feed = await openFeed(user);
    const res = await api("/api/auth/logout", { method: "POST", token: user.token });
    expect(res.status).toBe(200);
    const since = performance.now();
    expect(await closedWithin(feed.closed, 1_000)).toBe(CREDENTIAL_ENDED);
    expect(performance.now() - since).toBeLessThan(1_000);
    expect(feed.frames.at(-1)?.data).toEqual({
      type: "credential_ended",
      message: "Session ended: sign in again",
    });
    await createTodo({ ...user, token: other.token }, { title: "After logout" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(feed.frames.some((f) => isTodoEvent(f.data))).toBe(false);
  });

  it("G19: revoking a session closes its chat of the index; a public chat opened without a credential stays", async () => {
    const user = await signUp();
    const other = await signIn(user.username, user.password);
    const chat = await openChat(user, (await createChat(user)).id);
    const open = await connectWS(`/agents/chat-agent/${freshName("chat")}`);
    const res = await api(`/api/auth/sessions/${sessionOf(user.token)}/revoke`, {
      method: "POST",
      token: other.token,
    });
    expect(res.status).toBe(200);
    expect(await closedWithin(chat.closed, 1_000)).toBe(CREDENTIAL_ENDED);
    expect(await closedWithin(open.closed, 300)).toBe("open");
    open.close();
  });
});
