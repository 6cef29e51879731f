// Runs in the chat Durable Object: whose chat an instance is, for its tools and its spend.
import type { Db } from "../db/client";
import { ownerIdFromChatName } from "../auth/chat-names";
import { isChatId } from "../chats/chat-ids";
import { chatOwner } from "../chats/chats.queries";

/**
 * The user a chat belongs to: an indexed chat's owner, or the user a `user-<id>[-<suffix>]` name
 * carries (only they reach either, whatever AGENTS_REQUIRE_AUTH says: src/agents/agent-paths.ts);
 * else nobody, since anyone can reach any other name in public mode.
 */
export async function chatOwnerOf(db: Db, chatName: string): Promise<number | null> {
  if (isChatId(chatName)) return chatOwner(db, chatName);
  return ownerIdFromChatName(chatName);
}
