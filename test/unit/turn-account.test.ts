// docs/security.md B4, B5: the per-user budget on an injected clock, and a budget that cannot be read.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { admitTurn, DailyTokenLedger } from "../../src/agents/chat-limits";
import { openTurnAccount } from "../../src/agents/turn-account";
import { DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS } from "../../src/core/config";
import { createLogger } from "../../src/core/logger";
import { daysBetween, monthStart, utcDay } from "../../src/usage/usage-days";
import { signUp } from "../helpers/auth";
import { createChat } from "../helpers/chats";
import { injected, withFaults } from "../helpers/faults";
import { seedUsage, usageRows } from "../helpers/usage";
import { onShardOf } from "../helpers/shards";

const logger = createLogger({ test: "turn-account" }, "error");
// Never read: a chat with an owner spends from D1.
const noLedger = new Proxy({} as DailyTokenLedger, {
  get: () => {
    throw new Error("the instance ledger must not be touched");
  },
});

describe("B4: the per-user budget, on the clock it is given", () => {
  it("refuses on the day the budget is spent and admits the next UTC day, whole", async () => {
    const alice = await signUp();
    const chat = await createChat(alice);
    const day = new Date("2026-06-30T23:59:59.999Z");
    await seedUsage(alice.userId, DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS, utcDay(day));
    const payer = { env, name: chat.id, ledger: noLedger };
    expect(await openTurnAccount(payer, logger, 8_192, day)).toEqual({ ok: false, refusal: "userBudget" });
    const tomorrow = await openTurnAccount(payer, logger, 8_192, new Date("2026-07-01T00:00:00.000Z"));
    expect(tomorrow).toMatchObject({ ok: true, maxOutputTokens: 8_192 });
  });
});

describe("B5: a budget that cannot be read", () => {
  it("refuses the turn (no model call) rather than spend blind", async () => {
    const budget = {
      opensPublicBudget: false,
      left: () => Promise.reject(new Error("D1: injected fault")),
    };
    const verdict = await admitTurn(env, {
      instance: "x",
      connection: undefined,
      budget,
      maxOutputTokens: 10,
    });
    expect(verdict).toEqual({ ok: false, refusal: "unavailable" });
  });
});

const failing = () => injected("D1 insert");

describe("B9: the usage write failing after an answer", () => {
  it("leaves the answer alone and logs what was not booked", async () => {
    const alice = await signUp();
    // Every INSERT in the user's data database (where their usage is) fails; reads (the budget) work.
    const failingInserts = await onShardOf({ userId: alice.userId }, (db) =>
      withFaults(db, {
        prepare: (query: string) => {
          const statement = db.prepare(query);
          if (!/^insert/i.test(query)) return statement;
          return withFaults(statement, {
            bind: () => withFaults(statement, { run: failing, all: failing, raw: failing }),
          });
        },
      }),
    );
    const payer = {
      env: { ...env, ...failingInserts, AGENTS_REQUIRE_AUTH: "true" },
      name: `user-${alice.userId}`,
      ledger: noLedger,
    };
    const account = await openTurnAccount(payer, createLogger({}, "error"), 100);
    if (!account.ok) throw new Error(`refused: ${account.refusal}`);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await account.meter.onStepEnd({
        usage: { inputTokens: 1, outputTokens: 2 } as never,
        response: { modelId: "m" },
      });
      expect(errors.mock.calls.map(([line]) => JSON.parse(String(line)).event)).toEqual([
        "chat_usage_write_failed",
      ]);
    } finally {
      errors.mockRestore();
    }
    expect(await usageRows(alice.userId)).toEqual([]);
  });
});

describe("usage days", () => {
  it("counts in UTC days", () => {
    expect(utcDay(new Date("2026-03-01T00:30:00+02:00"))).toBe("2026-02-28");
    expect(monthStart(new Date("2026-02-28T23:00:00Z"))).toBe("2026-02-01");
    expect(daysBetween("2024-01-01", "2024-12-31")).toBe(366);
    expect(daysBetween("2026-03-01", "2026-03-01")).toBe(1);
  });
});
