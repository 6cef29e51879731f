import { env } from "cloudflare:workers";
import type { UIMessage } from "ai";
import { api } from "./http";
import { chatPath } from "./agents";
import type { AnswerMetadata } from "../../src/agents/turn-meter";
import { dataDb } from "./shards";

/** Today and yesterday as the service counts them (UTC). */
export const today = () => new Date().toISOString().slice(0, 10);
export const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** The chat models in the order they are tried (wrangler.jsonc CHAT_MODELS). */
export const CHAT_MODELS = env.CHAT_MODELS.split(",");

export interface UsageRow {
  id: number;
  userId: number;
  chatId: string;
  kind: "chat" | "title";
  model: string;
  inputTokens: number;
  outputTokens: number;
  estimated: number;
  day: string;
}

/** The user's usage rows as D1 holds them, oldest first. */
export async function usageRows(userId: number): Promise<UsageRow[]> {
  const { results } = await (
    await dataDb({ userId })
  )
    .prepare("SELECT * FROM ai_usage_table WHERE userId = ? ORDER BY id")
    .bind(userId)
    .all<UsageRow>();
  return results;
}

/** A call booked for `userId` as if a chat had spent `outputTokens` on `day`. */
export async function seedUsage(userId: number, outputTokens: number, day = today(), chatId = "user-seed") {
  await (
    await dataDb({ userId })
  )
    .prepare(
      "INSERT INTO ai_usage_table (userId, chatId, kind, model, inputTokens, outputTokens, day) VALUES (?, ?, 'chat', 'seed-model', 0, ?, ?)",
    )
    .bind(userId, chatId, outputTokens, day)
    .run();
}

/** Moves every call of the user back one day: the clock moved to tomorrow, as the budget sees it. */
export async function backdateUsage(userId: number) {
  await (
    await dataDb({ userId })
  )
    .prepare("UPDATE ai_usage_table SET day = ? WHERE userId = ?")
    .bind(yesterday(), userId)
    .run();
}

/** GET /api/ai/usage as `token`'s holder. */
export const usageOf = (token: string, query = "") => api<any>(`/api/ai/usage${query}`, { token });

/** The stored assistant messages of a chat, with their metadata. */
export async function assistantMessages(name: string, token?: string) {
  const res = await api<UIMessage<AnswerMetadata>[]>(`${chatPath(name)}/get-messages`, { token });
  return res.body.filter((m) => m.role === "assistant");
}
