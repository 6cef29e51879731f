// Runs in the Worker: whose chat an id is, as the agents gate and the ticket route ask on every connect.
import { cachedLookup, forgetLookup, rememberLookup } from "../auth/auth-user-cache";
import type { Databases } from "../db/databases";
import { chatDb } from "./chat-places";
import { chatOwner } from "./chats.queries";

const keyOf = (id: string) => `chat:${id}`;

/**
 * The user whose index holds the chat, or null. A found owner is reused for a moment, as the gate
 * reuses a user (src/auth/auth-user-cache.ts): a chat's owner never changes, and its delete drops the
 * entry in this isolate at once (others within 2 s; a chat's agent that finds its row gone wipes itself).
 */
export async function ownerOfChat(dbs: Databases, id: string): Promise<number | null> {
  const cached = cachedLookup<number>(keyOf(id));
  if (cached !== undefined) return cached;
  const db = await chatDb(dbs, id);
  const owner = db && (await chatOwner(db, id));
  return owner === null ? null : rememberLookup(keyOf(id), owner, owner);
}

export function forgetChatOwner(id: string): void {
  forgetLookup(keyOf(id));
}
