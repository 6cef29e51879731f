// Runs in the chat Durable Object: whose chat an instance is, for its tools and its spend.
import { agentsRequireAuth } from "../core/config";
import type { Db } from "../db/client";
import { ownerIdFromChatName } from "../auth/chat-names";
import { isChatId } from "../chats/chat-ids";
import { chatOwner } from "../chats/chats.queries";

/**
 * The user a chat belongs to: an indexed chat's owner (only they reach it, whatever AGENTS_REQUIRE_AUTH
 * says); with sign-in on, the user a `user-<id>[-<suffix>]` name carries; else nobody, since in public
 * mode anyone can reach an instance.
 */
export async function chatOwnerOf(env: Env, db: Db, chatName: string): Promise<number | null> {
  if (isChatId(chatName)) return chatOwner(db, chatName);
  return agentsRequireAuth(env) ? ownerIdFromChatName(chatName) : null;
}
