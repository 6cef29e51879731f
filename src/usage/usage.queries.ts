import { and, between, countDistinct, desc, eq, sql, sum } from "drizzle-orm";
import type { Db } from "../db/client";
import { chatsTable } from "../db/chats-schema";
import { aiUsageTable, anonUsageTable } from "../db/usage-schema";

const usage = aiUsageTable;
export type NewUsage = typeof usage.$inferInsert;

/** Writes one row per model call, in one statement. */
export async function insertUsage(db: Db, rows: NewUsage[]): Promise<void> {
  if (rows.length > 0) await db.insert(usage).values(rows);
}

const outputSum = sql<number>`coalesce(${sum(usage.outputTokens)}, 0)`.mapWith(Number);
const inputSum = sql<number>`coalesce(${sum(usage.inputTokens)}, 0)`.mapWith(Number);
const calls = sql<number>`count(*)`.mapWith(Number);
const FIGURES = { calls, inputTokens: inputSum, outputTokens: outputSum };

/** Output tokens the user's model calls spent on a UTC day (the (userId, day, outputTokens) index covers it). */
export async function outputTokensOn(db: Db, userId: number, day: string): Promise<number> {
  const [row] = await db
    .select({ outputTokens: outputSum })
    .from(usage)
    .where(and(eq(usage.userId, userId), eq(usage.day, day)));
  return row?.outputTokens ?? 0;
}

/**
 * The user's usage from `from` to `to` (UTC days, both counted) in one batch: totals, by day, by chat
 * (the `chatLimit` that spent most output, with their titles while the chat exists), by model, and
 * the output of `today`.
 */
export function usageBetween(
  db: Db,
  userId: number,
  range: { from: string; to: string; today: string },
  chatLimit: number,
) {
  const inRange = and(eq(usage.userId, userId), between(usage.day, range.from, range.to));
  return db.batch([
    db
      .select({ ...FIGURES, chats: countDistinct(usage.chatId) })
      .from(usage)
      .where(inRange),
    db
      .select({ day: usage.day, ...FIGURES })
      .from(usage)
      .where(inRange)
      .groupBy(usage.day)
      .orderBy(usage.day),
    db
      .select({ chatId: usage.chatId, title: sql<string | null>`max(${chatsTable.title})`, ...FIGURES })
      .from(usage)
      .leftJoin(chatsTable, and(eq(chatsTable.id, usage.chatId), eq(chatsTable.userId, usage.userId)))
      .where(inRange)
      .groupBy(usage.chatId)
      .orderBy(desc(outputSum), usage.chatId)
      .limit(chatLimit),
    db
      .select({ model: usage.model, ...FIGURES })
      .from(usage)
      .where(inRange)
      .groupBy(usage.model)
      .orderBy(desc(outputSum), usage.model),
    db
      .select({ outputTokens: outputSum })
      .from(usage)
      .where(and(eq(usage.userId, userId), eq(usage.day, range.today))),
  ]);
}

/** Output tokens every chat without an owner spent together on a UTC day. */
export async function anonOutputTokensOn(db: Db, day: string): Promise<number> {
  const [row] = await db
    .select({ outputTokens: anonUsageTable.outputTokens })
    .from(anonUsageTable)
    .where(eq(anonUsageTable.day, day));
  return row?.outputTokens ?? 0;
}

/** Adds one call of a chat without an owner to its day, in one statement (the day's row made on first use). */
export async function addAnonOutputTokens(db: Db, day: string, tokens: number): Promise<void> {
  if (!(tokens > 0)) return;
  await db
    .insert(anonUsageTable)
    .values({ day, outputTokens: Math.ceil(tokens) })
    .onConflictDoUpdate({
      target: anonUsageTable.day,
      set: { outputTokens: sql`${anonUsageTable.outputTokens} + excluded.outputTokens` },
    });
}
