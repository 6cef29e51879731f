import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { NOW, ownerId } from "./schema";

// What each user's model calls cost. Beside schema.ts (drizzle.config.ts reads both).

export const USAGE_KINDS = ["chat", "title"] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

/**
 * One row per model call made for a user: a step of a chat turn, or a chat's title. Written by the
 * chat's Durable Object once the call ends (src/usage/usage-recorder.ts); read by the per-user daily
 * budget and GET /api/ai/usage. Rows outlive their chat (the day's budget still counts them) and go
 * with their user.
 */
export const aiUsageTable = sqliteTable(
  "ai_usage_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: ownerId(),
    // The ChatAgent instance the call was made for: a chat id, or a `user-<id>[-<suffix>]` name.
    chatId: text().notNull(),
    kind: text({ enum: USAGE_KINDS }).notNull(),
    // The model that answered (the fallback, when the first one failed).
    model: text().notNull(),
    inputTokens: integer().notNull(),
    outputTokens: integer().notNull(),
    // True when the model reported nothing (a stopped or broken stream): output counted from what streamed.
    estimated: integer({ mode: "boolean" }).notNull().default(false),
    // The UTC day of createdAt: the budget's key and the report's grouping.
    day: text().notNull(),
    createdAt: text().notNull().default(NOW),
  },
  (t) => [index("ai_usage_user_day_idx").on(t.userId, t.day, t.outputTokens)],
);

/**
 * Output tokens every chat without an owner (public mode) spent together per UTC day: one row a day,
 * incremented by each call. Each such chat also has its own daily ledger in its Durable Object; this
 * caps them all, so new chat names cannot add budget without end (CHAT_ANON_DAILY_OUTPUT_TOKENS).
 */
export const anonUsageTable = sqliteTable("anon_usage_table", {
  day: text().primaryKey(),
  outputTokens: integer().notNull(),
});
