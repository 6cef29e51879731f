// What each model call costs its user (D1), the per-user daily budget over all their chats, and the usage
// each answer carries. Chats of the index have an owner in either mode; the agents here run in public mode.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DailyTokenLedger, TURN_REFUSALS } from "../../src/agents/chat-limits";
import { DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS } from "../../src/core/config";
import { NORMAL_REASONING, NORMAL_TEXT, TOOL_DONE_TEXT } from "../fakes/workers-ai";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { chatPath, modelCalls, modelSaw, sendTurn, turnOutcome } from "../helpers/agents";
import { createChat, openChat } from "../helpers/chats";
import { connectWS, freshName, type TestSocket } from "../helpers/ws";
import { countEverywhere } from "../helpers/shards";
import {
  assistantMessages,
  backdateUsage,
  CHAT_MODELS,
  seedUsage,
  today,
  usageOf,
  usageRows,
} from "../helpers/usage";

// What the scripted model reports (test/fakes/workers-ai.ts): 12 prompt tokens a call, one completion
// token per streamed delta, 3 for a title, 5 for a tool call.
const PROMPT = 12;
const ANSWER = NORMAL_REASONING.length + NORMAL_TEXT.length;
const TITLE = 3;

async function turn(socket: TestSocket, text: string) {
  const id = `t-${crypto.randomUUID()}`;
  sendTurn(socket, id, text);
  return (await turnOutcome(socket, id)).error;
}

async function openedChat(user: SignedUpUser) {
  const chat = await createChat(user);
  return { chat, socket: await openChat(user, chat.id) };
}

describe("usage: every model call is booked on its user", () => {
  it("a turn and the chat's title: the tokens the model reported, the model, the chat, the day", async () => {
    const alice = await signUp();
    const { chat, socket } = await openedChat(alice);
    expect(await turn(socket, "[script:title:Greetings] Hello")).toBeUndefined();
    // The title is made off the turn's path.
    await expect.poll(async () => (await usageRows(alice.userId)).length).toBe(2);
    const rows = await usageRows(alice.userId);
    expect(rows).toEqual([
      expect.objectContaining({
        chatId: chat.id,
        kind: "chat",
        model: CHAT_MODELS[0],
        inputTokens: PROMPT,
        outputTokens: ANSWER,
        estimated: 0,
        day: today(),
      }),
      expect.objectContaining({
        chatId: chat.id,
        kind: "title",
        model: env.TITLE_MODEL,
        inputTokens: PROMPT,
        outputTokens: TITLE,
      }),
    ]);

    const metadata = { model: CHAT_MODELS[0], usage: { inputTokens: PROMPT, outputTokens: ANSWER } };
    const [answer] = await assistantMessages(chat.id, alice.token);
    expect(answer!.metadata).toMatchObject(metadata);
    // Streamed too, so a client shows it without reading the transcript again.
    const streamed = socket.frames
      .filter((f) => f.data?.type === "cf_agent_use_chat_response" && f.data.body)
      .map((f) => JSON.parse(f.data.body))
      .filter((chunk) => chunk.type === "message-metadata");
    expect(streamed.at(-1)).toEqual({ type: "message-metadata", messageMetadata: metadata });

    const report = await usageOf(alice.token);
    expect(report.status).toBe(200);
    const total = { calls: 2, inputTokens: 2 * PROMPT, outputTokens: ANSWER + TITLE };
    expect(report.body.data).toEqual({
      userId: alice.userId,
      from: `${today().slice(0, 8)}01`,
      to: today(),
      totals: total,
      byDay: [{ day: today(), ...total }],
      byChat: [{ chatId: chat.id, title: "Greetings", ...total }],
      moreChats: 0,
      byModel: expect.arrayContaining([
        { model: CHAT_MODELS[0], calls: 1, inputTokens: PROMPT, outputTokens: ANSWER },
        { model: env.TITLE_MODEL, calls: 1, inputTokens: PROMPT, outputTokens: TITLE },
      ]),
      today: {
        day: today(),
        outputTokens: ANSWER + TITLE,
        budget: DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS,
        left: DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS - ANSWER - TITLE,
      },
    });
    socket.close();
  });

  it("a turn that calls a tool books each model call, and its answer carries the sum", async () => {
    const alice = await signUp();
    const { chat, socket } = await openedChat(alice);
    expect(await turn(socket, "[script:tool:listTodos {}] what is on my list?")).toBeUndefined();
    await expect
      .poll(async () => (await usageRows(alice.userId)).filter((r) => r.kind === "chat"))
      .toEqual([
        expect.objectContaining({ inputTokens: PROMPT, outputTokens: 5 }),
        expect.objectContaining({ inputTokens: PROMPT, outputTokens: TOOL_DONE_TEXT.length }),
      ]);
    const [answer] = await assistantMessages(chat.id, alice.token);
    expect(answer!.metadata!.usage).toEqual({
      inputTokens: 2 * PROMPT,
      outputTokens: 5 + TOOL_DONE_TEXT.length,
    });
    socket.close();
  });

  it("B4: a turn's tool steps together stay within the day's budget: exceeded by at most one step's bound", async () => {
    const alice = await signUp();
    const left = 8;
    await seedUsage(alice.userId, DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS - left);
    const { socket } = await openedChat(alice);
    // The model calls a tool on every step (5 tokens each): unbounded, five steps would spend 25.
    const marker = `loop-${crypto.randomUUID()}`;
    await turn(socket, `[script:tool-loop:listTodos {}] ${marker}`);
    const asked = (await modelCalls())
      .filter((call) => JSON.stringify(call.inputs).includes(marker))
      .map((call) => call.inputs.max_tokens as number);
    // Each step asks for what the earlier ones left; none starts once the budget is spent.
    expect(asked).toEqual([8, 3]);
    const spent = (await usageRows(alice.userId))
      .filter((row) => row.kind === "chat" && row.chatId !== "user-seed")
      .reduce((sum, row) => sum + row.outputTokens, 0);
    expect(spent).toBe(10);
    expect(spent - left).toBeLessThanOrEqual(Math.max(...asked));
    socket.close();
  });

  it("a chat without an owner books nothing on any user (its own daily ledger counts it)", async () => {
    const name = freshName();
    const socket = await connectWS(chatPath(name));
    expect(await turn(socket, "Hello")).toBeUndefined();
    expect(await countEverywhere("SELECT count(*) AS n FROM ai_usage_table WHERE chatId = ?", name)).toBe(0);
    const spent = await runInDurableObject(env.ChatAgent.getByName(name), (_agent, state) =>
      new DailyTokenLedger(state.storage.sql).spent(),
    );
    expect(spent).toBe(ANSWER);
    socket.close();
  });
});

describe("B4, usage: the per-user daily budget over all of a user's chats", () => {
  it("asks for no more than is left, then refuses every chat of that user without a model call; others go on; the next UTC day it answers again", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    await seedUsage(alice.userId, DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS - 5);
    const first = await openedChat(alice);
    const last = `last-${crypto.randomUUID()}`;
    expect(await turn(first.socket, last)).toBeUndefined();
    const call = (await modelCalls()).find((c) => JSON.stringify(c.inputs).includes(last))!;
    expect(call.inputs.max_tokens).toBe(5);

    // Spent (5 left, 7 reported): this chat and any other of Alice's refuse before the model is asked.
    const second = await openedChat(alice);
    for (const { socket } of [first, second]) {
      const marker = `spent-${crypto.randomUUID()}`;
      expect(await turn(socket, marker)).toBe(TURN_REFUSALS.userBudget);
      expect(await modelSaw(marker)).toBe(false);
    }
    const bobs = await openedChat(bob);
    expect(await turn(bobs.socket, "Hello")).toBeUndefined();
    expect((await usageOf(alice.token)).body.data.today.left).toBe(0);

    // Tomorrow (UTC): the day's calls are yesterday's, and the budget is whole again.
    await backdateUsage(alice.userId);
    expect(await turn(second.socket, "Hello again")).toBeUndefined();
    for (const { socket } of [first, second, bobs]) socket.close();
  });
});
