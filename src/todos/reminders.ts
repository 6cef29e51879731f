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
 * The todo as a reminder sync needs it, or null when no reminder can be involved: it has no scheduleAt
 * and the write did not change it (`scheduleChanged`), so it had none before either.
 */
export function mayHaveReminder(todo: ReminderTodo & { scheduleAt: string | null }, scheduleChanged = false) {
  return todo.scheduleAt !== null || scheduleChanged ? todo : null;
}

/**
 * Called after a todo write has committed in D1 (in the background): moves, sets or cancels the todo's
 * reminder in the owner's agent (`user-<id>`), as of the todo's `version`, so an older write's sync
 * arriving late changes nothing. One RPC on a plain stub (the SDK starts the agent on it, as for the
 * feed). Only with AGENTS_REQUIRE_AUTH=true: in public mode anyone could open that chat and read the
 * reminders. A failure is logged; the todo write stands.
 */
export async function syncTodoReminder(
  env: Env,
  logger: Logger,
  todo: ReminderTodo,
  version: number,
): Promise<void> {
  if (!agentsRequireAuth(env)) return;
  try {
    await env.ChatAgent.getByName(ownChatName(todo.userId)).setTodoReminder(
      todo.id,
      reminderFor(todo),
      version,
    );
  } catch (err) {
    logger.error("reminder_sync_failed", { todoId: todo.id, error: String(err) });
  }
}
