// Runs in the Worker, for other Workers: a user's chats over RPC (a service binding with
// `entrypoint: "ChatsService"`). Loaded with the entry module, so it imports its work on first call.
import { WorkerEntrypoint } from "cloudflare:workers";
import type { UIMessage } from "ai";
import type { ChatPage } from "../chats/chats";
import type { ChatView } from "../chats/chats.queries";

const MAX_LIMIT = 100;

function checkUserId(userId: unknown): number {
  if (typeof userId !== "number" || !Number.isSafeInteger(userId) || userId < 1) {
    throw new TypeError("userId must be a positive integer");
  }
  return userId;
}

/**
 * A user's chats for other Workers, under the API's ownership rule: a chat that is not in that user's
 * index is not found (null), whoever else it belongs to. The calling Worker says which user it acts
 * for, as with the Durable Object bindings: bind it only to Workers you trust with every user's chats.
 */
export class ChatsService extends WorkerEntrypoint<Env> {
  /** The user's chats, most recent activity first; pass `nextCursor` back as `cursor` for the next page. */
  async listChats(userId: number, options: { cursor?: string; limit?: number } = {}): Promise<ChatPage> {
    const owner = checkUserId(userId);
    const limit = options.limit ?? 20;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new TypeError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
    }
    const { chatPage } = await import("../chats/chats-reads");
    return chatPage(this.env, owner, options.cursor, limit);
  }

  /** One of the user's chats, or null. */
  async getChat(userId: number, chatId: string): Promise<ChatView | null> {
    const owner = checkUserId(userId);
    if (typeof chatId !== "string") throw new TypeError("chatId must be a string");
    const { chatOf } = await import("../chats/chats-reads");
    return chatOf(this.env, owner, chatId);
  }

  /** The messages of one of the user's chats (the last 200), oldest first; null when it is not theirs. */
  async getMessages(userId: number, chatId: string): Promise<UIMessage[] | null> {
    if (!(await this.getChat(userId, chatId))) return null;
    const { getAgentByName } = await import("agents");
    const chat = await getAgentByName(this.env.ChatAgent, chatId);
    return chat.transcript();
  }
}
