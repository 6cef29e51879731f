// Runs in the Durable Object, from its start: what the chat keeps of a message's file parts, and the
// origin a socket was opened at (a part's absolute URL must name it). The reading is in chat-files.ts.
import type { Connection } from "agents";
import type { UIMessage } from "ai";

/** The longest `data:` URL a file part may carry, in characters (a file of about 96 KiB in base64). */
export const DATA_URL_MAX_CHARS = 128 * 1024;
/** What the transcript keeps of a longer one: the part (its name and type) without the bytes. */
export const OMITTED_DATA_URL = "data:,omitted";

/** The message as stored: a `data:` URL over the bound loses its bytes, so the transcript stays small. */
export function withoutOversizeData(message: UIMessage): UIMessage {
  const oversize = message.parts.some(
    (part) => part.type === "file" && part.url.startsWith("data:") && part.url.length > DATA_URL_MAX_CHARS,
  );
  if (!oversize) return message;
  return {
    ...message,
    parts: message.parts.map((part) =>
      part.type === "file" && part.url.startsWith("data:") && part.url.length > DATA_URL_MAX_CHARS
        ? { ...part, url: OMITTED_DATA_URL }
        : part,
    ),
  };
}

interface OriginState {
  origin?: string;
}

/** Keeps the origin `connection` was opened at in its state (which survives hibernation). */
export function rememberOrigin(connection: Connection, upgrade: Request): void {
  const { origin } = new URL(upgrade.url);
  connection.setState((previous: unknown) => ({
    ...(previous !== null && typeof previous === "object" ? previous : {}),
    origin,
  }));
}

/** The origin a turn's socket was opened at; undefined for a turn the server started. */
export function connectionOrigin(connection: Connection | undefined): string | undefined {
  return (connection?.state as OriginState | null | undefined)?.origin;
}
