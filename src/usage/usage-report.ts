import type { Db } from "../db/client";
import { usageBetween } from "./usage.queries";

/** Chats listed one by one in a report; the rest are counted in `moreChats`. */
export const REPORT_CHATS = 100;

/** What a user's model calls cost from `from` to `to` (UTC days), and where today stands against the budget. */
export async function usageReport(
  db: Db,
  userId: number,
  range: { from: string; to: string; today: string },
  dailyOutputTokens: number,
) {
  const [[totals], byDay, byChat, byModel, [today]] = await usageBetween(db, userId, range, REPORT_CHATS);
  const { chats = 0, ...figures } = totals ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
  const spentToday = today?.outputTokens ?? 0;
  return {
    userId,
    from: range.from,
    to: range.to,
    totals: figures,
    byDay,
    byChat,
    moreChats: Math.max(0, chats - byChat.length),
    byModel,
    today: {
      day: range.today,
      outputTokens: spentToday,
      budget: dailyOutputTokens,
      left: Math.max(0, dailyOutputTokens - spentToday),
    },
  };
}
