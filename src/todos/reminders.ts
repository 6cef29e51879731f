import { getAgentByName } from "agents";
import type { UIMessage } from "ai";
import { agentsRequireAuth } from "../core/config";
import type { Logger } from "../core/logger";
import { ownChatName } from "../auth/chat-names";

/** What a todo write tells the owner's agent; a deleted todo is `{ id, userId, deleted: true }`. */
export type ReminderTodo =
  | { id: number; userId: number; title: string; scheduleAt: string | null; completed: boolean }
  | { id: number; userId: number; deleted: true };

export interface ReminderPayload {
  todoId: number;
  title: string;
  scheduleAt: string;
}

/** The schedule a todo should have: an open todo with a future scheduleAt, else none. */
export function reminderFor(todo: ReminderTodo, now = Date.now()): ReminderPayload | null {
  if ("deleted" in todo || todo.completed || !todo.scheduleAt) return null;
  if (Date.parse(todo.scheduleAt) <= now) return null;
  return { todoId: todo.id, title: todo.title, scheduleAt: todo.scheduleAt };
}

/** The chat message a fired reminder adds to the transcript. */
export function reminderMessage(payload: ReminderPayload): UIMessage {
  return {
    id: `reminder-${payload.todoId}-${Date.parse(payload.scheduleAt)}`,
    role: "assistant",
    parts: [{ type: "text", text: `Reminder: "${payload.title}" is due (${payload.scheduleAt}).` }],
    metadata: { reminder: payload },
  };
}

/**
 * Called after a todo write has committed in D1: moves, sets or cancels the todo's reminder in the
 * owner's agent (`user-<id>`). Only with AGENTS_REQUIRE_AUTH=true: in public mode anyone could open
 * that chat and read the reminders. A failure is logged; the todo write stands.
 */
export async function syncTodoReminder(env: Env, logger: Logger, todo: ReminderTodo): Promise<void> {
  if (!agentsRequireAuth(env)) return;
  try {
    const agent = await getAgentByName(env.ChatAgent, ownChatName(todo.userId));
    await agent.setTodoReminder(todo.id, reminderFor(todo));
  } catch (err) {
    logger.error("reminder_sync_failed", { todoId: todo.id, error: String(err) });
  }
}
