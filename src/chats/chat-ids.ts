// Runs in both: the Worker mints and gates chat ids; the chat Durable Object knows it is an indexed chat.
import { base64url } from "../core/base64url";

// 128 random bits: an id is never guessed, and the prefix keeps ids apart from the names clients choose.
const ID_BYTES = 16;
const CHAT_ID = /^chat_[A-Za-z0-9_-]{22}$/;

/** A new chat's id, chosen by the server; it is also its ChatAgent instance's name. */
export function newChatId(): string {
  return `chat_${base64url(crypto.getRandomValues(new Uint8Array(ID_BYTES)))}`;
}

/**
 * Whether an instance name has the shape of a chat id. Such an instance is reachable only by the user
 * whose index holds it, whatever AGENTS_REQUIRE_AUTH says.
 */
export function isChatId(name: string): boolean {
  return CHAT_ID.test(name);
}
