// Runs in the chat Durable Object: whose chat an instance is, for its tools and its spend.
import type { Databases } from "../db/databases";
import { ownerIdFromChatName } from "../auth/chat-names";
import { isChatId } from "../chats/chat-ids";
import { chatDb } from "../chats/chat-places";
import { chatOwner } from "../chats/chats.queries";

/**
 * The user a chat belongs to: an indexed chat's owner, or the user a `user-<id>[-<suffix>]` name
 * carries (only they reach either, whatever AGENTS_REQUIRE_AUTH says: src/agents/agent-paths.ts);
 * else nobody, since anyone can reach any other name in public mode.
 */
export async function chatOwnerOf(dbs: Databases, chatName: string): Promise<number | null> {
  if (isChatId(chatName)) {
    const db = await chatDb(dbs, chatName);
    return db && chatOwner(db, chatName);
  }
  return ownerIdFromChatName(chatName);
}
