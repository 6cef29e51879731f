// Runs with AI_DEMO=true (project "workers-demo"): the offline demo model answers, through the chat
// WebSocket as clients use it, with the real provider, tools, approvals, index and titles.
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { chatPath, chunks, joined, sendTurn, turnOutcome } from "../helpers/agents";
import { createChat, getChat, openChat } from "../helpers/chats";
import { api, expectData } from "../helpers/http";
import { TodoPageSchema } from "../../src/todos/todos.schemas";
import { DEMO_MODEL_ID } from "../../src/ai/models";

function transcriptOf(user: SignedUpUser, id: string) {
  return api<UIMessage[]>(`${chatPath(id)}/get-messages`, { token: user.token });
}

type ToolPart = { type: string; state: string; toolCallId: string; input?: any; output?: any };

async function toolPart(user: SignedUpUser, id: string, name: string) {
  const parts = (await transcriptOf(user, id)).body.flatMap((m) => m.parts) as unknown as ToolPart[];
  return parts.findLast((p) => p.type === `tool-${name}`);
}

describe("the offline demo model (AI_DEMO=true)", () => {
  it("says it is the demo on connect and in its answer, streams it, and titles the chat", async () => {
    const alice = await signUp();
    const chat = await createChat(alice);
    const socket = await openChat(alice, chat.id);
    await socket.waitFor((d) => d?.type === "chat_model");
    expect(socket.frames.find((f) => f.data?.type === "chat_model")?.data).toEqual({
      type: "chat_model",
      demo: true,
    });

    sendTurn(socket, "t1", "Hello, what can you do?");
    expect((await turnOutcome(socket, "t1")).error).toBeUndefined();
    const parts = chunks(socket.frames, "t1");
    expect(parts.filter((c) => c.type === "text-delta").length).toBeGreaterThan(5);
    expect(joined(parts, "text-delta")).toContain("**This is the offline demo model**");
    expect(joined(parts, "text-delta")).toContain("npm run dev:remote");
    const answer = (await transcriptOf(alice, chat.id)).body.at(-1)!;
    expect(answer.metadata).toMatchObject({ model: DEMO_MODEL_ID });

    const frame = await socket.waitFor((d) => d?.type === "chat_title");
    expect(frame.data.title).toBe("Hello, what can you do?");
    expect((await getChat(alice, chat.id)).title).toBe("Hello, what can you do?");
    socket.close();
  });

  it("calls a todo tool that waits for approval, then answers with its result", async () => {
    const alice = await signUp();
    const chat = await createChat(alice);
    const socket = await openChat(alice, chat.id);
    sendTurn(socket, "t1", "Add a todo: water the plants");
    expect((await turnOutcome(socket, "t1")).error).toBeUndefined();
    const pending = (await toolPart(alice, chat.id, "createTodo"))!;
    expect(pending).toMatchObject({ state: "approval-requested", input: { title: "water the plants" } });

    socket.send({
      type: "cf_agent_tool_approval",
      toolCallId: pending.toolCallId,
      approved: true,
      autoContinue: true,
    });
    await expect
      .poll(async () => JSON.stringify((await transcriptOf(alice, chat.id)).body), { timeout: 5_000 })
      .toContain("Done: **water the plants** is on your todo list now.");
    const todos = expectData(await api("/api/todos", { token: alice.token }), 200, TodoPageSchema);
    expect(todos.items.map((t) => t.title)).toEqual(["water the plants"]);

    // A read tool runs at once; the demo lists what it returned.
    const history = (await transcriptOf(alice, chat.id)).body;
    sendTurn(socket, "t2", "What's on my list?", history);
    await expect
      .poll(async () => JSON.stringify((await transcriptOf(alice, chat.id)).body), { timeout: 5_000 })
      .toContain("Here is what I found (1):\\n\\n- water the plants");
    socket.close();
  });

  it("GET /ai/health says the demo answers", async () => {
    const res = await api<{ data: { provider: string; model: string; result: { response: string } } }>(
      "/ai/health",
      { headers: { "CF-Connecting-IP": "203.0.113.77" } },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      provider: "demo",
      model: DEMO_MODEL_ID,
      result: { response: "AI_OK" },
    });
  });
});
