// GET /api/ai/usage: ranges, grouping, who may read whose usage, and every bad input. The rows are
// seeded as the chat writes them (test/agents/chat-usage.test.ts books them through real turns).
import { describe, expect, it } from "vitest";
import { DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS } from "../../src/core/config";
import { UsageReportSchema } from "../../src/routes/usage/usage.schemas";
import { REPORT_CHATS } from "../../src/usage/usage-report";
import { signUp } from "../helpers/auth";
import { createChat } from "../helpers/chats";
import { createKey } from "../helpers/credentials";
import { makeAdmin } from "../helpers/db";
import { api, expectData, expectError } from "../helpers/http";
import { today, usageOf } from "../helpers/usage";
import { dataDb } from "../helpers/shards";

interface Call {
  chatId?: string;
  model?: string;
  kind?: "chat" | "title";
  inputTokens?: number;
  outputTokens: number;
  day: string;
}

async function book(userId: number, calls: Call[]) {
  const db = await dataDb({ userId });
  await db.batch(
    calls.map((c) =>
      db
        .prepare(
          "INSERT INTO ai_usage_table (userId, chatId, kind, model, inputTokens, outputTokens, day) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(
          userId,
          c.chatId ?? "user-x",
          c.kind ?? "chat",
          c.model ?? "m1",
          c.inputTokens ?? 10,
          c.outputTokens,
          c.day,
        ),
    ),
  );
}

const report = async (token: string, query = "") =>
  expectData(await usageOf(token, query), 200, UsageReportSchema);

describe("GET /api/ai/usage", () => {
  it("sums a range by day, by chat (with its title) and by model; days outside it do not count", async () => {
    const alice = await signUp();
    const chat = await createChat(alice, { title: "Trip" });
    await book(alice.userId, [
      { chatId: chat.id, model: "m1", outputTokens: 100, day: "2026-03-01" },
      { chatId: chat.id, model: "m2", outputTokens: 50, inputTokens: 5, day: "2026-03-01" },
      { chatId: chat.id, kind: "title", model: "t", outputTokens: 3, day: "2026-03-02" },
      { chatId: "user-gone", model: "m1", outputTokens: 7, day: "2026-03-31" },
      { chatId: chat.id, model: "m1", outputTokens: 1_000, day: "2026-02-28" },
      { chatId: chat.id, model: "m1", outputTokens: 1_000, day: "2026-04-01" },
    ]);
    const data = await report(alice.token, "?from=2026-03-01&to=2026-03-31");
    expect(data).toMatchObject({
      userId: alice.userId,
      from: "2026-03-01",
      to: "2026-03-31",
      totals: { calls: 4, inputTokens: 35, outputTokens: 160 },
      byDay: [
        { day: "2026-03-01", calls: 2, inputTokens: 15, outputTokens: 150 },
        { day: "2026-03-02", calls: 1, inputTokens: 10, outputTokens: 3 },
        { day: "2026-03-31", calls: 1, inputTokens: 10, outputTokens: 7 },
      ],
      byChat: [
        { chatId: chat.id, title: "Trip", calls: 3, inputTokens: 25, outputTokens: 153 },
        // A chat that is gone keeps its usage, without a title.
        { chatId: "user-gone", title: null, calls: 1, inputTokens: 10, outputTokens: 7 },
      ],
      moreChats: 0,
      byModel: [
        { model: "m1", calls: 2, inputTokens: 20, outputTokens: 107 },
        { model: "m2", calls: 1, inputTokens: 5, outputTokens: 50 },
        { model: "t", calls: 1, inputTokens: 10, outputTokens: 3 },
      ],
    });
  });

  it("defaults to this month up to today, and says where today stands against the budget", async () => {
    const alice = await signUp();
    await book(alice.userId, [{ outputTokens: 1_234, day: today() }]);
    const data = await report(alice.token);
    expect(data.from).toBe(`${today().slice(0, 8)}01`);
    expect(data.to).toBe(today());
    expect(data.totals.outputTokens).toBe(1_234);
    expect(data.today).toEqual({
      day: today(),
      outputTokens: 1_234,
      budget: DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS,
      left: DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS - 1_234,
    });
    // `to` alone: its month from its first day; a user without usage gets zeros, not an error.
    const empty = await report((await signUp()).token, "?to=2025-02-14");
    expect(empty).toMatchObject({
      from: "2025-02-01",
      to: "2025-02-14",
      totals: { calls: 0, inputTokens: 0, outputTokens: 0 },
    });
    expect(empty.byDay).toEqual([]);
  });

  it(`lists the ${REPORT_CHATS} chats that spent most, and counts the rest`, async () => {
    const alice = await signUp();
    const calls = Array.from({ length: REPORT_CHATS + 3 }, (_, i) => ({
      chatId: `user-${alice.userId}-c${i}`,
      outputTokens: i + 1,
      day: "2026-05-05",
    }));
    await book(alice.userId, calls);
    const data = await report(alice.token, "?from=2026-05-01&to=2026-05-31");
    expect(data.byChat).toHaveLength(REPORT_CHATS);
    expect(data.byChat[0]!.outputTokens).toBe(REPORT_CHATS + 3);
    expect(data.moreChats).toBe(3);
    expect(data.totals.calls).toBe(REPORT_CHATS + 3);
  });

  it("B1, B2: a user reads only their own usage; an admin signed in reads anyone's, never with an API key", async () => {
    const [alice, bob, admin] = await Promise.all([signUp(), signUp(), signUp()]);
    await makeAdmin(admin.userId);
    await book(alice.userId, [{ outputTokens: 42, day: today() }]);
    await book(bob.userId, [{ outputTokens: 9, day: today() }]);
    // Bob's own report holds nothing of Alice's.
    expect((await report(bob.token)).totals.outputTokens).toBe(9);
    expectError(await usageOf(bob.token, `?userId=${alice.userId}`), 403, "You can only read your own usage");
    expect((await report(alice.token, `?userId=${alice.userId}`)).totals.outputTokens).toBe(42);

    const asAdmin = await report(admin.token, `?userId=${alice.userId}`);
    expect(asAdmin).toMatchObject({ userId: alice.userId, totals: { outputTokens: 42 } });
    expectError(await usageOf(admin.token, "?userId=999999999"), 404, "User not found");
    const adminKey = await createKey(admin.token, ["chats:read"]);
    expectError(await usageOf(adminKey.key, `?userId=${alice.userId}`), 403, /needs a sign-in/);
  });

  it("API keys: with chats:read their user's usage (it names chats); without it, agents:connect included, 403", async () => {
    const alice = await signUp();
    await book(alice.userId, [{ outputTokens: 5, day: today() }]);
    const key = await createKey(alice.token, ["chats:read"]);
    expect((await report(key.key)).totals.outputTokens).toBe(5);
    for (const scopes of [["todos:read"], ["agents:connect"]]) {
      const other = await createKey(alice.token, scopes);
      expectError(await usageOf(other.key), 403, "This API key lacks the scope chats:read");
    }
  });

  it("B3: refuses bad input with 400 and a missing or bad token with 401", async () => {
    const alice = await signUp();
    for (const query of [
      "?from=2026-1-01",
      "?from=yesterday",
      "?from=2026-02-30",
      "?to=2026-13-01",
      "?from=2026-03-02&to=2026-03-01",
      "?from=2024-01-01&to=2025-01-02",
      `?from=${"9".repeat(10_000)}`,
      "?userId=0",
      "?userId=-1",
      "?userId=1.5",
      "?userId=1e3",
      "?userId=abc",
      "?userId=99999999999999999999",
    ]) {
      expectError(await usageOf(alice.token, query), 400);
    }
    // 366 days is the most one request may cover.
    expect((await usageOf(alice.token, "?from=2024-01-01&to=2024-12-31")).status).toBe(200);
    expectError(await api("/api/ai/usage"), 401);
    expectError(await usageOf("not-a-token"), 401);
    expectError(await api("/api/ai/usage", { method: "POST", token: alice.token, json: {} }), 404);
  });
});
