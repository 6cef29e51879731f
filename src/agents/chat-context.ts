// Runs in the Durable Object: the chat agent's view of its transcript for the model.
import { pruneMessages, type ModelMessage } from "ai";

// The default chat model has a 32k-token window (QwQ-32B: 24k); ~4 characters a token leaves room for a long answer.
export const CONTEXT_CHAR_BUDGET = 40_000;

function size(message: ModelMessage): number {
  return JSON.stringify(message.content).length;
}

/**
 * The model's view of a long chat: earlier reasoning and tool traffic dropped, then the most recent
 * messages that fit the budget (always at least the latest one).
 */
export function fitContext(messages: ModelMessage[], budget = CONTEXT_CHAR_BUDGET): ModelMessage[] {
  const pruned = pruneMessages({
    messages,
    reasoning: "before-last-message",
    toolCalls: "before-last-2-messages",
    emptyMessages: "remove",
  });
  let used = 0;
  let start = pruned.length;
  while (start > 0) {
    const next = size(pruned[start - 1]!);
    if (start < pruned.length && used + next > budget) break;
    used += next;
    start -= 1;
  }
  // A window that opens on an assistant or tool turn confuses chat templates: start on a user turn.
  while (start < pruned.length - 1 && pruned[start]!.role !== "user") start += 1;
  return pruned.slice(start);
}
