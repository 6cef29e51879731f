// Runs in the chat Durable Object: what the index shows of a transcript.
import type { UIMessage } from "ai";
import type { ChatSummary } from "./chats.queries";
import { cutOff, messageText, PREVIEW_CHARS } from "./chat-text";

/** The latest text of the transcript, cut for a list row; null when no message has text. */
function preview(messages: UIMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = messageText(messages[i]!);
    if (text) return cutOff(text, PREVIEW_CHARS);
  }
  return null;
}

/** The summary of `messages` as of `now` (ISO 8601): every change of the transcript is activity. */
export function summarize(messages: UIMessage[], now: string): ChatSummary {
  return {
    messageCount: messages.length,
    preview: preview(messages),
    lastMessageAt: messages.length > 0 ? now : null,
    lastActivityAt: now,
  };
}

/** What tells one transcript from the next for the index: a write happens only when it changes. */
export function summaryKey(messages: UIMessage[]): string {
  return JSON.stringify([messages.length, messages.at(-1)?.id ?? null, preview(messages)]);
}
