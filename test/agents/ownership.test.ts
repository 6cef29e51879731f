import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import {
  AUTH_ON,
  chatPath,
  connectAuthed,
  counterPath,
  fetchWith,
  sendTurn,
  turnOutcome,
  upgradeWith,
} from "../helpers/agents";
import { api } from "../helpers/http";
import { freshName } from "../helpers/ws";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function transcriptAs(token: string, name: string) {
  const res = await fetchWith(AUTH_ON, `${chatPath(name)}/get-messages`, { headers: bearer(token) });
  return { status: res.status, body: (await res.json()) as any };
}

/** User A with one answered turn in `user-<A>`, and user B. */
async function aliceWithChat() {
  const [alice, bob] = await Promise.all([signUp(), signUp()]);
  const name = `user-${alice.userId}`;
  const socket = await connectAuthed(`${chatPath(name)}?token=${alice.token}`);
  sendTurn(socket, "a1", "Hello from Alice");
  expect((await turnOutcome(socket, "a1")).error).toBeUndefined();
  socket.close();
  const before = await transcriptAs(alice.token, name);
  expect(before.body.map((m: any) => m.role)).toEqual(["user", "assistant"]);
  return { alice, bob, name, before: before.body };
}

describe("G11: with AGENTS_REQUIRE_AUTH on, a chat belongs to the user its name carries", () => {
  it("lets the owner open user-<id> and user-<id>-<suffix>", async () => {
    const alice = await signUp();
    for (const name of [`user-${alice.userId}`, `user-${alice.userId}-work_2`]) {
      const socket = await connectAuthed(`${chatPath(name)}?token=${alice.token}`);
      socket.close();
      expect((await transcriptAs(alice.token, name)).status).toBe(200);
    }
  });

  it("refuses another user's upgrade, transcript read and plain requests with 403, before any effect", async () => {
    const { alice, bob, name, before } = await aliceWithChat();
    for (const res of [
      await upgradeWith(AUTH_ON, `${chatPath(name)}?token=${bob.token}`),
      await upgradeWith(AUTH_ON, chatPath(name), bearer(bob.token)),
      await fetchWith(AUTH_ON, `${chatPath(name)}/get-messages`, { headers: bearer(bob.token) }),
      await fetchWith(AUTH_ON, chatPath(name), { method: "POST", headers: bearer(bob.token) }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.webSocket).toBeNull();
      expect(await res.json()).toEqual({
        success: false,
        error: { message: "This chat belongs to another user" },
      });
    }
    expect((await transcriptAs(alice.token, name)).body).toEqual(before);
  });

  it("gives another user no socket to forge messages, clear the chat or call it on", async () => {
    const { alice, bob, name, before } = await aliceWithChat();
    // Each attack needs an open socket on Alice's instance; Bob never gets one, whatever he presents.
    for (const path of [
      `${chatPath(name)}?token=${bob.token}`,
      `${chatPath(`user-${alice.userId}-x`)}?token=${bob.token}`,
    ]) {
      const res = await upgradeWith(AUTH_ON, path);
      expect(res.status).toBe(403);
    }
    // The owner's own socket still works, and what Bob attempted changed nothing.
    const own = await connectAuthed(`${chatPath(name)}?token=${alice.token}`);
    own.close();
    expect((await transcriptAs(alice.token, name)).body).toEqual(before);
  });

  it.each([
    ["a name without an owner", () => "shared-room"],
    ["an owner id with a leading zero", (id: number) => `user-0${id}`],
    ["an empty suffix", (id: number) => `user-${id}-`],
    ["an uppercase prefix", (id: number) => `USER-${id}`],
  ])("refuses %s with 403 for chat", async (_label, nameFor) => {
    const alice = await signUp();
    const res = await upgradeWith(AUTH_ON, `${chatPath(nameFor(alice.userId))}?token=${alice.token}`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.message).toMatch(/user-<your user id>/);
  });

  it("keeps counters shared rooms: any signed-in user reaches any counter", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const name = freshName("room");
    const a = await connectAuthed(`${counterPath(name)}?token=${alice.token}`);
    const b = await connectAuthed(`${counterPath(name)}?token=${bob.token}`);
    a.send({ type: "rpc", id: "i1", method: "increment", args: [] });
    await b.waitFor((d) => d?.type === "cf_agent_state" && d.state.count === 1);
    a.close();
    b.close();
  });

  it("refuses a deleted owner's token on their own chat (G16)", async () => {
    const alice = await signUp();
    expect(
      (await api(`/api/users/${alice.userId}/delete`, { method: "POST", token: alice.token })).status,
    ).toBe(200);
    const res = await upgradeWith(AUTH_ON, `${chatPath(`user-${alice.userId}`)}?token=${alice.token}`);
    expect(res.status).toBe(401);
  });

  it("G17: in public mode (the default) a chat named after a user stays that user's alone", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    for (const name of [`user-${alice.userId}`, `user-${alice.userId}-notes`]) {
      expect((await api(`${chatPath(name)}/get-messages`)).status).toBe(401);
      expect((await api(`${chatPath(name)}/get-messages`, { token: bob.token })).status).toBe(403);
      expect((await api(`${chatPath(name)}/get-messages`, { token: alice.token })).status).toBe(200);
      expect((await upgradeWith({}, chatPath(name))).status).toBe(401);
      expect((await upgradeWith({}, `${chatPath(name)}?token=${bob.token}`)).status).toBe(403);
    }
    // Any other name is still public.
    expect((await api(`${chatPath(freshName())}/get-messages`)).status).toBe(200);
  });
});
