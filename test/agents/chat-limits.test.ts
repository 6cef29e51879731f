import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DailyTokenLedger, TURN_REFUSALS } from "../../src/agents/chat-limits";
import { DEFAULT_CHAT_DAILY_OUTPUT_TOKENS } from "../../src/core/config";
import { signUp } from "../helpers/auth";
import { chatPath, connectAuthed, modelCalls, modelSaw, sendTurn, turnOutcome } from "../helpers/agents";
import { inOneWindow } from "../helpers/limiter-window";
import { connectWS, freshName, type TestSocket } from "../helpers/ws";
import { freshIp } from "../helpers/client-ip";

// wrangler.jsonc: CHAT_CONNECTION_LIMITER 10 and CHAT_CALLER_LIMITER 30 turns a minute.
const PER_CONNECTION = 10;
const PER_CALLER = 30;

/** Runs `count` turns one after another; returns the error text of each (undefined when answered). */
async function turns(socket: TestSocket, count: number, prefix = "t"): Promise<(string | undefined)[]> {
  const errors = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${i}-${crypto.randomUUID()}`;
    sendTurn(socket, id, `turn ${id}`);
    errors.push((await turnOutcome(socket, id)).error);
  }
  return errors;
}

// Room in one limiter window for a scenario of 10 or 30 turns, with margin for a loaded machine: a
// scenario a rollover cut short runs again in a window with that much room.
const TEN_TURNS_MS = 15_000;
const THIRTY_TURNS_MS = 30_000;

const spentBy = (name: string) =>
  runInDurableObject(env.ChatAgent.getByName(name), (_agent, state) =>
    new DailyTokenLedger(state.storage.sql).spent(),
  );

describe("G14: chat turns per connection", () => {
  it("answers 10 turns on one socket, then refuses with a clear error in the stream and no model call", async () => {
    await inOneWindow(TEN_TURNS_MS, async () => {
      // A marker of each run's own: a run a rollover cut short may have sent its marker to the model.
      const marker = `over-${crypto.randomUUID()}`;
      const socket = await connectWS(chatPath(freshName()));
      expect(await turns(socket, PER_CONNECTION)).toEqual(Array(PER_CONNECTION).fill(undefined));
      sendTurn(socket, "over", marker);
      expect((await turnOutcome(socket, "over")).error).toBe(TURN_REFUSALS.connection);
      socket.close();
      expect(await modelSaw(marker)).toBe(false);
    });
    // A new connection of the same client gets its own allowance.
    const next = await connectWS(chatPath(freshName()));
    expect(await turns(next, 1)).toEqual([undefined]);
    next.close();
  }, 90_000);
});

describe("G14: chat turns per client IP in public mode", () => {
  it("counts every socket of one IP, over many chats, even with a forged caller header", async () => {
    await inOneWindow(THIRTY_TURNS_MS, async () => {
      const marker = `ip-${crypto.randomUUID()}`;
      const ip = freshIp();
      const sockets = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          connectWS(chatPath(freshName()), { "CF-Connecting-IP": ip, "x-agent-caller": `user:${i}` }),
        ),
      );
      for (const socket of sockets.slice(0, 3)) {
        expect(await turns(socket, PER_CALLER / 3)).toEqual(Array(PER_CALLER / 3).fill(undefined));
      }
      sendTurn(sockets[3]!, "over", marker);
      expect((await turnOutcome(sockets[3]!, "over")).error).toBe(TURN_REFUSALS.caller);
      for (const socket of sockets) socket.close();
      expect(await modelSaw(marker)).toBe(false);
    });
    // Another IP is unaffected.
    const other = await connectWS(chatPath(freshName()));
    expect(await turns(other, 1)).toEqual([undefined]);
    other.close();
  }, 90_000);
});

describe("G14: chat turns per user with AGENTS_REQUIRE_AUTH on", () => {
  it("counts every chat and socket of one user, whatever IPs they come from", async () => {
    await inOneWindow(THIRTY_TURNS_MS, async () => {
      const alice = await signUp();
      const sockets = await Promise.all(
        ["a", "b", "c", "d"].map((suffix) =>
          connectAuthed(`${chatPath(`user-${alice.userId}-${suffix}`)}?token=${alice.token}`),
        ),
      );
      for (const socket of sockets.slice(0, 3)) {
        expect(await turns(socket, PER_CALLER / 3)).toEqual(Array(PER_CALLER / 3).fill(undefined));
      }
      sendTurn(sockets[3]!, "over", "one more");
      expect((await turnOutcome(sockets[3]!, "over")).error).toBe(TURN_REFUSALS.caller);
      for (const socket of sockets) socket.close();
    });
  }, 90_000);
});

describe("G14: daily output-token budget per instance", () => {
  it("books what the model reports: 7 output tokens for the scripted short answer, 500 for the long one", async () => {
    const name = freshName();
    const socket = await connectWS(chatPath(name));
    await turns(socket, 1);
    expect(await spentBy(name)).toBe(7);
    sendTurn(socket, "long", "[script:long] go");
    await turnOutcome(socket, "long");
    expect(await spentBy(name)).toBe(507);
    socket.close();
  });

  it("asks the model for no more than is left, then refuses once the budget is spent", async () => {
    const name = freshName();
    await runInDurableObject(env.ChatAgent.getByName(name), (_agent, state) =>
      new DailyTokenLedger(state.storage.sql).add(DEFAULT_CHAT_DAILY_OUTPUT_TOKENS - 5),
    );
    const socket = await connectWS(chatPath(name));
    const first = `last-${crypto.randomUUID()}`;
    sendTurn(socket, "last", first);
    expect((await turnOutcome(socket, "last")).error).toBeUndefined();
    const call = (await modelCalls()).find((c) => JSON.stringify(c.inputs).includes(first))!;
    expect(call.inputs.max_tokens).toBe(5);

    const marker = `spent-${crypto.randomUUID()}`;
    sendTurn(socket, "spent", marker);
    expect((await turnOutcome(socket, "spent")).error).toBe(TURN_REFUSALS.budget);
    expect(await modelSaw(marker)).toBe(false);
    socket.close();
  });

  it("keeps only today's count", async () => {
    const name = freshName();
    await runInDurableObject(env.ChatAgent.getByName(name), (_agent, state) => {
      const book = new DailyTokenLedger(state.storage.sql);
      book.add(100, "2000-01-01");
      book.add(3);
      expect(book.spent("2000-01-01")).toBe(0);
      expect(book.spent()).toBe(3);
    });
  });
});
