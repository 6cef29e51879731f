// Runs in both: the Worker mints and gates chat ids; the chat Durable Object knows it is an indexed chat.
import { base64url } from "../core/base64url";

// 128 random bits: an id is never guessed, and the prefix keeps ids apart from the names clients choose.
// `chat_<userId>_<random>`: the owner's id names the data database holding the chat's row, so the gate
// finds it without a scan (issue 42); `chat_<random>` ids, from before shards, carry none.
const ID_BYTES = 16;
const CHAT_ID = /^chat_(?:([1-9][0-9]{0,15})_)?[A-Za-z0-9_-]{22}$/;

/** A new chat's id, chosen by the server; it is also its ChatAgent instance's name. */
export function newChatId(userId: number): string {
  return `chat_${userId}_${base64url(crypto.getRandomValues(new Uint8Array(ID_BYTES)))}`;
}

/**
 * Whether an instance name has the shape of a chat id. Such an instance is reachable only by the user
 * whose index holds it, whatever AGENTS_REQUIRE_AUTH says.
 */
export function isChatId(name: string): boolean {
  return CHAT_ID.test(name);
}

/** The user whose workspace a chat id names: its owner (checked against the row), or null for an id from before shards. */
export function userOfChatId(id: string): number | null {
  const named = CHAT_ID.exec(id)?.[1];
  if (named === undefined) return null;
  const userId = Number(named);
  return Number.isSafeInteger(userId) ? userId : null;
}
