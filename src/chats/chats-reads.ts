// Runs in the Worker, loaded on ChatsService's first call: what other Workers read of a user's chats.
import { userOwner } from "../core/owner";
import { openDatabases } from "../db/databases";
import { decodeChatCursor } from "./chat-cursor";
import { listChats, type ChatPage } from "./chats";
import { findChatForUser, type ChatView } from "./chats.queries";

/** One page of the user's chats after `cursor` (a nextCursor as given); a cursor it cannot read throws. */
export async function chatPage(
  env: Env,
  userId: number,
  cursor: string | undefined,
  limit: number,
): Promise<ChatPage> {
  const after = cursor === undefined ? undefined : decodeChatCursor(cursor);
  if (after === null) throw new TypeError("Invalid cursor: pass a nextCursor as given");
  return listChats(await openDatabases(env).of(userOwner(userId)), userId, after, limit);
}

/** One of the user's chats, or null. */
export async function chatOf(env: Env, userId: number, chatId: string): Promise<ChatView | null> {
  return findChatForUser(await openDatabases(env).of(userOwner(userId)), chatId, userId);
}
