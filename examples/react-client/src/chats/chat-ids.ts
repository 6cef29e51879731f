/** A chat of the index: an id the service chose (`POST /api/chats`), private to its owner in either mode. */
const CHAT_ID = /^chat_[A-Za-z0-9_-]{22}$/;

export function isChatId(name: string): boolean {
  return CHAT_ID.test(name);
}
