/**
 * A chat of the index: an id the service chose (`POST /api/chats`), private to its owner in either mode:
 * `chat_<userId>_<random>`, or `chat_<random>` from before the service's shards.
 */
const CHAT_ID = /^chat_(?:[1-9][0-9]{0,15}_)?[A-Za-z0-9_-]{22}$/;

export function isChatId(name: string): boolean {
  return CHAT_ID.test(name);
}
