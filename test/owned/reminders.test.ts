// Runs with AGENTS_REQUIRE_AUTH=true (project "workers-owned"): a user's own agent is the chat `user-<id>`.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { getAgentByName } from "agents";
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import type { ChatAgent } from "../../src/agents/chat-agent";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { api, expectData } from "../helpers/http";
import { connectWS } from "../helpers/ws";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

async function ownAgent(user: SignedUpUser) {
  return getAgentByName(env.ChatAgent, `user-${user.userId}`);
}

/** The reminder schedules in the user's agent: [todoId, time] pairs. */
async function reminders(user: SignedUpUser) {
  return runInDurableObject(await ownAgent(user), async (agent: ChatAgent) =>
    (await agent.listSchedules())
      .filter((s) => s.callback === "sendTodoReminder")
      .map((s) => [(s.payload as { todoId: number }).todoId, "time" in s ? s.time : null]),
  );
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

async function createTodo(user: SignedUpUser, json: object) {
  const res = await api("/api/todos", {
    method: "POST",
    token: user.token,
    json: { title: "Call the bank", ...json },
  });
  return expectData(res, 201, TodoWithAttachmentsSchema);
}

/** A transcript push that carries the reminder of "Water the plants". */
const isReminder = (d: any) =>
  d?.type === "cf_agent_chat_messages" &&
  d.messages.some((m: UIMessage) => JSON.stringify(m.parts).includes("Water the plants"));

const update = (user: SignedUpUser, id: number, json: object) =>
  api(`/api/todos/${id}`, { method: "POST", token: user.token, json });

describe("reminders from todos with a future scheduleAt", () => {
  it("schedules once after the write, moves with scheduleAt, and completing or deleting cancels it", async () => {
    const user = await signUp();
    const later = inSeconds(3600);
    const todo = await createTodo(user, { scheduleAt: later });
    expect(await reminders(user)).toEqual([[todo.id, seconds(later)]]);

    // The same write again (idempotent), then a new time (moved).
    expect((await update(user, todo.id, { scheduleAt: later })).status).toBe(200);
    expect(await reminders(user)).toEqual([[todo.id, seconds(later)]]);
    const moved = inSeconds(7200);
    await update(user, todo.id, { scheduleAt: moved });
    expect(await reminders(user)).toEqual([[todo.id, seconds(moved)]]);

    await update(user, todo.id, { completed: true });
    expect(await reminders(user)).toEqual([]);
    await update(user, todo.id, { completed: false });
    expect(await reminders(user)).toEqual([[todo.id, seconds(moved)]]);
    expect((await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: user.token })).status).toBe(
      200,
    );
    expect(await reminders(user)).toEqual([]);
  });

  it("schedules nothing for a past or cleared scheduleAt, or a failed write", async () => {
    const user = await signUp();
    const past = await createTodo(user, { scheduleAt: inSeconds(-60) });
    const plain = await createTodo(user, {});
    expect(await reminders(user)).toEqual([]);
    await update(user, plain.id, { scheduleAt: inSeconds(3600) });
    await update(user, plain.id, { scheduleAt: null });
    expect(await reminders(user)).toEqual([]);
    // A validation failure writes nothing and schedules nothing.
    expect((await update(user, past.id, { scheduleAt: "soon" })).status).toBe(400);
    expect(await reminders(user)).toEqual([]);
  });

  it("a sync that arrives after a newer write's (each runs after its answer) changes nothing", async () => {
    const user = await signUp();
    const todo = await createTodo(user, { scheduleAt: inSeconds(3600) });
    const agent = await ownAgent(user);
    const later = inSeconds(7200);
    // Version 3 moved it, then version 2's older time arrives: the reminder stays at version 3's.
    await agent.setTodoReminder(todo.id, { todoId: todo.id, title: todo.title, scheduleAt: later }, 3);
    await agent.setTodoReminder(
      todo.id,
      { todoId: todo.id, title: todo.title, scheduleAt: inSeconds(60) },
      2,
    );
    expect(await reminders(user)).toEqual([[todo.id, seconds(later)]]);
    // Version 4 cancelled it (completed): version 3's sync repeated late does not bring it back.
    await agent.setTodoReminder(todo.id, null, 4);
    await agent.setTodoReminder(todo.id, { todoId: todo.id, title: todo.title, scheduleAt: later }, 3);
    expect(await reminders(user)).toEqual([]);
  });

  it("fires through the alarm: every open client of the user gets it, and the transcript keeps it", async () => {
    const user = await signUp();
    const path = `/agents/chat-agent/user-${user.userId}?token=${user.token}`;
    const [tab1, tab2] = [await connectWS(path), await connectWS(path)];
    const todo = await createTodo(user, { title: "Water the plants", scheduleAt: inSeconds(1) });
    const agent = await ownAgent(user);
    // Hold the real alarm back so the test fires it, once the reminder is due.
    await runInDurableObject(agent, (_: ChatAgent, state) => state.storage.setAlarm(Date.now() + 60_000));
    // The agent runs schedules that are due by its own clock, so the test waits for the due time itself.
    await new Promise((r) => setTimeout(r, Date.parse(todo.scheduleAt!) - Date.now() + 50));
    expect(tab1.frames.some((f) => JSON.stringify(f.data).includes("Water the plants"))).toBe(false);
    expect(await runDurableObjectAlarm(agent)).toBe(true);

    await Promise.all([tab1.waitFor(isReminder), tab2.waitFor(isReminder)]);

    const stored = await api<UIMessage[]>(`/agents/chat-agent/user-${user.userId}/get-messages`, {
      token: user.token,
    });
    expect(stored.body).toEqual([
      expect.objectContaining({
        role: "assistant",
        parts: [{ type: "text", text: expect.stringContaining('Reminder: "Water the plants" is due') }],
        metadata: { reminder: expect.objectContaining({ todoId: todo.id }) },
      }),
    ]);
    expect(await reminders(user)).toEqual([]);
    tab1.close();
    tab2.close();
  });

  it("tool writes keep reminders in step too: an approved chat tool call and an MCP call", async () => {
    const user = await signUp();
    const at = inSeconds(3600);
    const socket = await connectWS(`/agents/chat-agent/user-${user.userId}?token=${user.token}`);
    const text = `[script:tool:createTodo {"title":"From chat","scheduleAt":"${at}"}]`;
    socket.send({
      type: "cf_agent_use_chat_request",
      id: "c1",
      init: {
        method: "POST",
        body: JSON.stringify({ messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }] }),
      },
    });
    const request = await socket.waitFor(
      (d) =>
        JSON.stringify(d).includes("approval-requested") ||
        JSON.stringify(d).includes("tool-approval-request"),
    );
    const toolCallId = JSON.stringify(request.data).match(/"toolCallId\\?":\\?"([^"\\]+)/)![1];
    socket.send({ type: "cf_agent_tool_approval", toolCallId, approved: true, autoContinue: true });
    await expect.poll(async () => (await reminders(user)).length, { timeout: 5_000 }).toBe(1);

    const mcp = await api("/mcp", {
      method: "POST",
      token: user.token,
      headers: { Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18" },
      json: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "createTodo", arguments: { title: "From MCP", scheduleAt: at } },
      },
    });
    expect(mcp.status).toBe(200);
    expect(await reminders(user)).toHaveLength(2);
    socket.close();
  });
});
