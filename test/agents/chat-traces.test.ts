// OpenTelemetry GenAI spans of model and tool calls, as a streaming tail worker receives them
// (test/workers/span-recorder.ts; deployed, Workers Observability with traces on).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RecordedSpan } from "../workers/span-recorder";
import { signUp } from "../helpers/auth";
import { sendTurn, turnOutcome } from "../helpers/agents";
import { createChat, openChat } from "../helpers/chats";
import { initialize, rpc } from "../helpers/mcp";
import { CHAT_MODELS } from "../helpers/usage";

const spansWhere = async (keep: (span: RecordedSpan) => boolean) => (await env.SPANS.spans()).filter(keep);
const names = (spans: RecordedSpan[]) => spans.map((s) => s.name).toSorted();

describe("B7, traces: GenAI spans with token usage and no prompt text", () => {
  it("a chat turn with a tool call: invoke_agent, a chat span per model call, execute_tool; the title too", async () => {
    const alice = await signUp();
    const chat = await createChat(alice);
    const socket = await openChat(alice, chat.id);
    const secret = `secret-${crypto.randomUUID()}`;
    sendTurn(socket, "t1", `[script:title:Todo check] [script:tool:listTodos {}] ${secret}`);
    expect((await turnOutcome(socket, "t1")).error).toBeUndefined();
    socket.close();
    const ofChat = (span: RecordedSpan) => span.attributes["gen_ai.conversation.id"] === chat.id;
    await new Promise((r) => setTimeout(r, 3000));
    console.log(
      "DBG",
      JSON.stringify(
        (await env.SPANS.spans()).map((s) => [s.name, s.attributes["gen_ai.conversation.id"], s.outcome]),
      ),
      chat.id,
    );
    await expect.poll(async () => (await spansWhere(ofChat)).length, { timeout: 5_000 }).toBe(6);
    const spans = await spansWhere(ofChat);
    expect(names(spans)).toEqual(
      [
        "invoke_agent chat-agent",
        `chat ${CHAT_MODELS[0]}`,
        `chat ${CHAT_MODELS[0]}`,
        "execute_tool listTodos",
        "invoke_agent chat-titles",
        `chat ${env.TITLE_MODEL}`,
      ].toSorted(),
    );
    const turn = spans.find((s) => s.name === "invoke_agent chat-agent")!;
    // The tool call (5 tokens) and the answer after it (1), each 12 tokens of prompt.
    expect(turn.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "chat-agent",
      "gen_ai.usage.input_tokens": 24,
      "gen_ai.usage.output_tokens": 6,
    });
    const calls = spans.filter((s) => s.name.startsWith("chat ") && s.parentId === turn.spanId);
    expect(calls.map((s) => s.attributes["gen_ai.usage.output_tokens"]).toSorted()).toEqual([1, 5]);
    for (const call of calls) {
      expect(call.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": CHAT_MODELS[0],
        "gen_ai.response.model": CHAT_MODELS[0],
        "gen_ai.usage.input_tokens": 12,
      });
    }
    expect(spans.find((s) => s.name === "execute_tool listTodos")).toMatchObject({
      parentId: turn.spanId,
      outcome: "ok",
      attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "listTodos" },
    });
    expect(spans.find((s) => s.name === `chat ${env.TITLE_MODEL}`)!.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 3,
    });
    // Nothing of what the user wrote, the model answered or a tool returned.
    expect(JSON.stringify(spans)).not.toContain(secret);
    expect(JSON.stringify(spans)).not.toMatch(
      /gen_ai\.(input|output)\.messages|tool\.call\.(arguments|result)/,
    );
  });

  it("the model that answered after a fallback is the chat span's response model", async () => {
    const alice = await signUp();
    const chat = await createChat(alice);
    const socket = await openChat(alice, chat.id);
    sendTurn(socket, "t1", `[script:refuse:${CHAT_MODELS[0]}] Hello`);
    expect((await turnOutcome(socket, "t1")).error).toBeUndefined();
    socket.close();
    const call = (span: RecordedSpan) =>
      span.attributes["gen_ai.conversation.id"] === chat.id && span.name.startsWith("chat @");
    await expect.poll(async () => (await spansWhere(call)).length, { timeout: 5_000 }).toBeGreaterThan(0);
    const [span] = await spansWhere((s) => call(s) && s.attributes["gen_ai.agent.name"] === "chat-agent");
    expect(span!.attributes).toMatchObject({
      "gen_ai.request.model": CHAT_MODELS[0],
      "gen_ai.response.model": CHAT_MODELS[1],
    });
  });

  it("a tool call over /mcp: execute_tool {name}, without its arguments", async () => {
    const alice = await signUp();
    await initialize(alice.token);
    const trace = crypto.randomUUID();
    const secret = `secret-${crypto.randomUUID()}`;
    const res = await rpc(
      alice.token,
      "tools/call",
      { name: "searchTodos", arguments: { text: secret } },
      "/mcp",
      {
        "X-Test-Trace": trace,
      },
    );
    expect(res.status).toBe(200);
    const ours = (span: RecordedSpan) => span.testTrace === trace;
    await expect.poll(async () => (await spansWhere(ours)).length, { timeout: 5_000 }).toBe(1);
    const [span] = await spansWhere(ours);
    expect(span).toMatchObject({
      name: "execute_tool searchTodos",
      outcome: "ok",
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "searchTodos",
        "gen_ai.tool.type": "function",
      },
    });
    expect(JSON.stringify(span)).not.toContain(secret);
  });
});
