// Runs with AGENTS_REQUIRE_AUTH=true (project "workers-owned"): every socket is opened by a credential,
// and closes within a second of that credential's end (src/agents/socket-guard.ts).
import { env } from "cloudflare:workers";
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { signIn, signUp, type SignedUpUser } from "../helpers/auth";
import { backdateRotation, createKey, refresh, sessionOf, setSessionTimes } from "../helpers/credentials";
import { requestResetLink } from "../helpers/email";
import { openFeed } from "../helpers/feed";
import { api } from "../helpers/http";
import { createTodo } from "../helpers/todos";
import { connectWS, freshName, type TestSocket } from "../helpers/ws";

const CREDENTIAL_ENDED = 4401;
const INSTANCE_DELETED = 4410;
const chatPath = (user: SignedUpUser, suffix = "") => `/agents/chat-agent/user-${user.userId}${suffix}`;
const counterPath = (name: string) => `/agents/counter-agent/${name}`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const post = (path: string, token: string, json: unknown = {}) => api(path, { method: "POST", token, json });

/**
 * Resolves once `socket` closed for its credential's end within `withinMs` of `since`
 * (performance.now()), after the frame that says so; fails otherwise.
 */
async function expectEnded(socket: TestSocket, since: number, code = CREDENTIAL_ENDED, withinMs = 1_000) {
  const timeout = new Promise<"open">((resolve) => setTimeout(() => resolve("open"), withinMs + 1_000));
  const closedWith = await Promise.race([socket.closed, timeout]);
  const elapsed = performance.now() - since;
  expect(closedWith).toBe(code);
  expect(elapsed).toBeLessThan(withinMs);
  if (code !== CREDENTIAL_ENDED) return;
  expect(socket.frames.map((f) => f.data)).toContainEqual({
    type: "credential_ended",
    message: expect.any(String),
  });
}

/** Still open `ms` later (a socket of a credential that did not end). */
async function expectStillOpen(socket: TestSocket, ms = 1_200) {
  const timeout = new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms));
  expect(await Promise.race([socket.closed, timeout])).toBe("open");
  expect(socket.ws.readyState).toBe(WebSocket.OPEN);
}

/** One chat socket, one live feed socket and one counter socket, all opened with `token`. */
async function openAll(user: SignedUpUser, token: string) {
  const chat = await connectWS(`${chatPath(user)}?token=${token}`);
  const feed = await openFeed({ ...user, token });
  const counter = await connectWS(counterPath(freshName("room")), bearer(token));
  // The connect frames are in: the agents have taken the sockets.
  for (const socket of [chat, feed, counter]) await socket.waitFor(() => true).catch(() => undefined);
  return [chat, feed, counter];
}

async function transcript(user: SignedUpUser, token: string): Promise<UIMessage[]> {
  const res = await api<UIMessage[]>(`${chatPath(user)}/get-messages`, { token });
  return res.body;
}

async function pendingApproval(user: SignedUpUser, token: string, tool: string): Promise<string> {
  let toolCallId: string | undefined;
  await expect
    .poll(async () => {
      const parts = (await transcript(user, token)).flatMap((m) => m.parts) as any[];
      const part = parts.findLast((p) => p.type === `tool-${tool}`);
      toolCallId = part?.state === "approval-requested" ? part.toolCallId : undefined;
      return toolCallId;
    })
    .toBeDefined();
  return toolCallId!;
}

describe("sockets close when the credential that opened them ends", () => {
  it("G19 logout: the session's chat, feed and counter sockets close within 1 s", async () => {
    const user = await signUp();
    const sockets = await openAll(user, user.token);
    const res = await post("/api/auth/logout", user.token);
    expect(res.status).toBe(200);
    const since = performance.now();
    for (const socket of sockets) await expectEnded(socket, since);
  });

  it("G19 session revoke: the revoked session's sockets close, the other session's stay", async () => {
    const user = await signUp();
    const other = await signIn(user.username, user.password);
    const [revoked, kept] = [await openAll(user, user.token), await openAll(user, other.token)];
    const res = await post(`/api/auth/sessions/${sessionOf(user.token)}/revoke`, other.token);
    expect(res.status).toBe(200);
    const since = performance.now();
    for (const socket of revoked) await expectEnded(socket, since);
    for (const socket of kept) await expectStillOpen(socket);
    for (const socket of kept) socket.close();
  });

  it("G19 password change: the other sessions' sockets close, the changing session's stay", async () => {
    const user = await signUp();
    const other = await signIn(user.username, user.password);
    const [ended, kept] = [await openAll(user, other.token), await openAll(user, user.token)];
    const res = await post(`/api/users/${user.userId}`, user.token, {
      password: `new-${crypto.randomUUID()}`,
      currentPassword: user.password,
    });
    expect(res.status).toBe(200);
    const since = performance.now();
    for (const socket of ended) await expectEnded(socket, since);
    for (const socket of kept) await expectStillOpen(socket);
    for (const socket of kept) socket.close();
  });

  it("G19 account recovery (password reset by link): every session's and key's sockets close", async () => {
    const user = await signUp();
    const { key } = await createKey(user.token, ["agents:connect", "todos:read"]);
    const sockets = await openAll(user, user.token);
    const byKey = await connectWS(counterPath(freshName("room")), bearer(key));
    const token = await requestResetLink(user.email);
    const res = await api("/api/auth/password-reset/confirm", {
      method: "POST",
      json: { token, password: `new-${crypto.randomUUID()}` },
    });
    expect(res.status).toBe(200);
    const since = performance.now();
    for (const socket of [...sockets, byKey]) await expectEnded(socket, since);
  });

  it("G19/G20 API key revoke: the key's sockets close, a counter call sent meanwhile changes nothing", async () => {
    const user = await signUp();
    const { id, key } = await createKey(user.token, ["agents:connect"]);
    const room = freshName("room");
    const socket = await connectWS(counterPath(room), bearer(key));
    const kept = await connectWS(counterPath(freshName("room")), bearer(user.token));
    const res = await post(`/api/keys/${id}/revoke`, user.token);
    expect(res.status).toBe(200);
    const since = performance.now();
    // Sent after the revoke answered: refused, whether it arrives before the close or not.
    socket.send({ type: "rpc", id: "late", method: "increment", args: [] });
    await expectEnded(socket, since);
    expect(socket.frames.some((f) => f.data?.type === "rpc" && f.data.id === "late")).toBe(false);
    const count = await api<{ count: number }>(counterPath(room), { token: user.token });
    expect(count.body.count).toBe(0);
    await expectStillOpen(kept, 300);
    kept.close();
  });

  it("G19 API key expiry: the key's sockets close at its expiry", async () => {
    const user = await signUp();
    const expiresAt = Date.now() + 1_500;
    const { key } = await createKey(user.token, ["agents:connect"], {
      expiresAt: new Date(expiresAt).toISOString(),
    });
    const socket = await connectWS(counterPath(freshName("room")), bearer(key));
    await expectStillOpen(socket, 500);
    const wait = expiresAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await expectEnded(socket, performance.now());
  });

  it("G19 session end: the session's sockets close at its absolute end", async () => {
    const user = await signUp();
    const endsAt = Date.now() + 1_500;
    await setSessionTimes(sessionOf(user.token), { expiresAt: new Date(endsAt).toISOString() });
    const socket = await connectWS(counterPath(freshName("room")), bearer(user.token));
    await expectStillOpen(socket, 500);
    const wait = endsAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await expectEnded(socket, performance.now());
  });

  it("G19 reused refresh token: the whole session ends, and its sockets close", async () => {
    const user = await signUp();
    const socket = await connectWS(counterPath(freshName("room")), bearer(user.token));
    expect((await refresh(user.refreshToken)).status).toBe(200);
    await backdateRotation(user.refreshToken, 60);
    expect((await refresh(user.refreshToken)).status).toBe(401);
    await expectEnded(socket, performance.now());
  });

  it("G19 account delete: every socket of the account closes within 1 s", async () => {
    const user = await signUp();
    const { key } = await createKey(user.token, ["agents:connect"]);
    const [chat, feed, counter] = await openAll(user, user.token);
    const byKey = await connectWS(counterPath(freshName("room")), bearer(key));
    const res = await post(`/api/users/${user.userId}/delete`, user.token);
    expect(res.status).toBe(200);
    const since = performance.now();
    // The account's own chat and feed are deleted with it; a counter outlives it, its sockets do not.
    for (const socket of [chat!, feed!]) await expectEnded(socket, since, INSTANCE_DELETED);
    for (const socket of [counter!, byKey]) await expectEnded(socket, since);
  });

  it("G20: a tool approval sent after the session was revoked deletes nothing", async () => {
    const user = await signUp();
    const other = await signIn(user.username, user.password);
    const todo = await createTodo(user, { title: `keep-${crypto.randomUUID()}` });
    const chat = await connectWS(`${chatPath(user)}?token=${user.token}`);
    chat.send({
      type: "cf_agent_use_chat_request",
      id: "del",
      init: {
        method: "POST",
        body: JSON.stringify({
          messages: [
            {
              id: "u-del",
              role: "user",
              parts: [
                { type: "text", text: `[script:tool:deleteTodo {"id":${todo.id},"expectedVersion":1}]` },
              ],
            },
          ],
          trigger: "submit-message",
        }),
      },
    });
    await chat.waitFor((d) => d?.type === "cf_agent_use_chat_response" && d.id === "del" && d.done, {
      timeoutMs: 10_000,
    });
    const toolCallId = await pendingApproval(user, other.token, "deleteTodo");

    const res = await post(`/api/auth/sessions/${sessionOf(user.token)}/revoke`, other.token);
    expect(res.status).toBe(200);
    const since = performance.now();
    chat.send({ type: "cf_agent_tool_approval", toolCallId, approved: true, autoContinue: true });
    await expectEnded(chat, since);
    // Given time to act, had it been admitted: the todo is still there.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await api(`/api/todos/${todo.id}`, { token: other.token })).status).toBe(200);
  });

  it("G20: a message on a socket whose credential ended unseen is refused, and the socket closes", async () => {
    const user = await signUp();
    const room = freshName("room");
    const socket = await connectWS(counterPath(room), bearer(user.token));
    await socket.waitFor(() => true).catch(() => undefined);
    // Ended straight in D1, so no sweep tells the counter: its next message finds out.
    await env.DB.prepare("DELETE FROM sessions_table WHERE id = ?").bind(sessionOf(user.token)).run();
    const since = performance.now();
    socket.send({ type: "rpc", id: "after", method: "increment", args: [] });
    await expectEnded(socket, since);
    expect(socket.frames.some((f) => f.data?.type === "rpc" && f.data.id === "after")).toBe(false);
    const other = await signUp();
    expect((await api<{ count: number }>(counterPath(room), { token: other.token })).body.count).toBe(0);
  });
});
