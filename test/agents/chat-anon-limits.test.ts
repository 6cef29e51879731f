// docs/security.md B10, B11: chats without an owner (public mode) share one daily budget in D1, and one
// client IP opens at most 10 new ones a minute, so new chat names add no budget without end.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TURN_REFUSALS } from "../../src/agents/chat-limits";
import { DEFAULT_CHAT_ANON_DAILY_OUTPUT_TOKENS } from "../../src/core/config";
import { signUp } from "../helpers/auth";
import { chatPath, modelCalls, modelSaw, sendTurn, turnOutcome } from "../helpers/agents";
import { createChat, openChat } from "../helpers/chats";
import { freshIp } from "../helpers/client-ip";
import { inOneWindow } from "../helpers/limiter-window";
import { today } from "../helpers/usage";
import { connectWS, freshName, type TestSocket } from "../helpers/ws";

async function turn(socket: TestSocket, text: string) {
  const id = `t-${crypto.randomUUID()}`;
  sendTurn(socket, id, text);
  return (await turnOutcome(socket, id)).error;
}

/** Moves today's spending of all public chats by `tokens` (the row made when missing). */
async function addAnonSpend(tokens: number) {
  await env.DB.prepare(
    "INSERT INTO anon_usage_table (day, outputTokens) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET outputTokens = outputTokens + excluded.outputTokens",
  )
    .bind(today(), tokens)
    .run();
}

async function anonSpend(): Promise<number> {
  const row = await env.DB.prepare("SELECT outputTokens FROM anon_usage_table WHERE day = ?")
    .bind(today())
    .first<{ outputTokens: number }>();
  return row?.outputTokens ?? 0;
}

describe("B10: one daily budget for all public chats together", () => {
  it("books every public chat's calls in D1; asks no more than is left of it, then refuses new and old names alike; owned chats go on", async () => {
    const first = await connectWS(chatPath(freshName()));
    const before = await anonSpend();
    expect(await turn(first, "Hello")).toBeUndefined();
    // The scripted answer reports 7 output tokens.
    await expect.poll(anonSpend).toBeGreaterThanOrEqual(before + 7);

    // Leave 5 tokens of the day: the next public turn asks for 5 (and spends 7), then nothing is left.
    const seeded = DEFAULT_CHAT_ANON_DAILY_OUTPUT_TOKENS - (await anonSpend()) - 5;
    await addAnonSpend(seeded);
    try {
      const last = `last-${crypto.randomUUID()}`;
      const second = await connectWS(chatPath(freshName()));
      expect(await turn(second, last)).toBeUndefined();
      const call = (await modelCalls()).find((c) => JSON.stringify(c.inputs).includes(last))!;
      expect(call.inputs.max_tokens).toBe(5);

      for (const socket of [first, second, await connectWS(chatPath(freshName()))]) {
        const marker = `spent-${crypto.randomUUID()}`;
        expect(await turn(socket, marker)).toBe(TURN_REFUSALS.anonBudget);
        expect(await modelSaw(marker)).toBe(false);
        socket.close();
      }
      // A chat with an owner spends its owner's budget, not the public one.
      const alice = await signUp();
      const owned = await openChat(alice, (await createChat(alice)).id);
      expect(await turn(owned, "Hello")).toBeUndefined();
      owned.close();
    } finally {
      await addAnonSpend(-seeded);
    }
  });
});

describe("B11: new public chats per client IP", () => {
  it("answers the first turn of 10 new chat names a minute from one IP, refuses the 11th without a model call; old chats and other IPs go on", async () => {
    await inOneWindow(20_000, async () => {
      const ip = freshIp();
      const sockets: TestSocket[] = [];
      for (let i = 0; i < 10; i++) {
        const socket = await connectWS(chatPath(freshName()), { "CF-Connecting-IP": ip });
        expect(await turn(socket, `new ${i}`)).toBeUndefined();
        sockets.push(socket);
      }
      const marker = `eleventh-${crypto.randomUUID()}`;
      const eleventh = await connectWS(chatPath(freshName()), { "CF-Connecting-IP": ip });
      expect(await turn(eleventh, marker)).toBe(TURN_REFUSALS.newChat);
      expect(await modelSaw(marker)).toBe(false);
      // A chat that already spent today is not new; another IP has its own allowance.
      expect(await turn(sockets[0]!, "again")).toBeUndefined();
      const other = await connectWS(chatPath(freshName()));
      expect(await turn(other, "Hello")).toBeUndefined();
      for (const socket of [...sockets, eleventh, other]) socket.close();
    });
  }, 90_000);
});
