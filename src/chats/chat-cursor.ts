// Runs in the Worker: the opaque cursor of a chat list page (clients pass it back, they do not build it).
import { base64url, fromBase64url } from "../core/base64url";
import { AGENT_NAME } from "../core/agent-names";
import type { ChatPosition } from "./chats.queries";

// The timestamps every index row holds: ISO 8601 UTC with milliseconds.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Long enough for a timestamp and the longest instance name, base64url-encoded. */
export const MAX_CHAT_CURSOR = 128;

export function encodeChatCursor({ lastActivityAt, id }: ChatPosition): string {
  return base64url(new TextEncoder().encode(`${lastActivityAt} ${id}`));
}

/** The position a cursor encodeChatCursor() made names, or null: anything else is refused, not guessed at. */
export function decodeChatCursor(cursor: string): ChatPosition | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor) || cursor.length > MAX_CHAT_CURSOR) return null;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(fromBase64url(cursor));
  } catch {
    return null;
  }
  const [lastActivityAt = "", id = "", ...rest] = text.split(" ");
  if (rest.length > 0 || !TIMESTAMP.test(lastActivityAt) || !AGENT_NAME.test(id)) return null;
  const position = { lastActivityAt, id };
  return encodeChatCursor(position) === cursor ? position : null;
}
