import type { Logger } from "../core/logger";

/** What every todo write publishes to its owner's open sockets (and keeps for RPC subscribers). */
export interface TodoEvent {
  type: "todo.created" | "todo.updated" | "todo.deleted";
  id: number;
  version: number;
}

/** The one live-feed instance of a user: `/agents/todo-feed-agent/user-<id>`. */
export function feedName(userId: number): string {
  return `user-${userId}`;
}

/** The user whose feed `name` is (feedName's inverse), or null for any other name. */
export function feedOwner(name: string): number | null {
  const id = /^user-([1-9]\d{0,15})$/.exec(name)?.[1];
  return id !== undefined && Number.isSafeInteger(Number(id)) ? Number(id) : null;
}

const EVENT_TYPES = {
  created: "todo.created",
  updated: "todo.updated",
  deleted: "todo.deleted",
} as const satisfies Record<string, TodoEvent["type"]>;

/** The event a change-log row stands for (the feed catching up from the log). */
export function eventOfChange(change: {
  kind: keyof typeof EVENT_TYPES;
  todoId: number;
  version: number;
}): TodoEvent {
  return { type: EVENT_TYPES[change.kind], id: change.todoId, version: change.version };
}

/**
 * Called after a todo write has committed in D1: hands the event to the owner's TodoFeedAgent, which
 * broadcasts it. One RPC on a plain stub: the Agents SDK starts an agent on its first RPC by itself
 * (it wraps an agent's own async methods to run its start-up first), so getAgentByName's separate
 * start-up call would be a second round trip on every write. A failure is logged; the write stands,
 * delta sync (updatedSince) has it, and the feed takes it from the change log when it next starts.
 */
export async function publishTodoEvent(
  env: Env,
  logger: Logger,
  userId: number,
  event: TodoEvent,
): Promise<void> {
  try {
    await env.TodoFeedAgent.getByName(feedName(userId)).publish(event);
  } catch (err) {
    logger.error("todo_event_publish_failed", { todoId: event.id, type: event.type, error: String(err) });
  }
}
