import { getAgentByName } from "agents";
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

/**
 * Called after a todo write has committed in D1: hands the event to the owner's TodoFeedAgent, which
 * broadcasts it. A failure is logged; the write stands, and delta sync (updatedSince) still has it.
 */
export async function publishTodoEvent(
  env: Env,
  logger: Logger,
  userId: number,
  event: TodoEvent,
): Promise<void> {
  try {
    const feed = await getAgentByName(env.TodoFeedAgent, feedName(userId));
    await feed.publish(event);
  } catch (err) {
    logger.error("todo_event_publish_failed", { todoId: event.id, type: event.type, error: String(err) });
  }
}
