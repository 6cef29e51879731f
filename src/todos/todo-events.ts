import type { Logger } from "../core/logger";
import { feedName } from "../core/feed-names";
import { userOwner, type Owner } from "../core/owner";

/**
 * What the live feed sends its owner's open sockets for each change in the log (and keeps for RPC
 * subscribers). A team's change names its team (`orgId`); a user's own carries none, as before teams.
 */
export interface TodoEvent {
  type: "todo.created" | "todo.updated" | "todo.deleted";
  id: number;
  version: number;
  orgId?: number;
}

/** Whose a todo (or its change) is: its team's, or its user's. */
export function todoOwner(todo: { userId: number | null; orgId: number | null }): Owner {
  return todo.orgId === null ? userOwner(todo.userId!) : { kind: "org", orgId: todo.orgId };
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
 * After a wake, the feed reads the change log for this long (and a margin), so one isolate wakes a
 * user's feed at most once per window: a burst of writes costs one RPC, not one per write.
 */
export const WAKE_WINDOW_MS = 1_000;
// Users this isolate woke lately, with when; older entries go once the map grows past this.
const TRACKED_WAKES = 1_000;
const lastWakes = new Map<string, number>();

function forgetOldWakes(now: number): void {
  if (lastWakes.size <= TRACKED_WAKES) return;
  for (const [name, at] of lastWakes) if (now - at >= WAKE_WINDOW_MS) lastWakes.delete(name);
}

/**
 * Called after a todo write has committed in D1: the owner's TodoFeedAgent (the user's, or the team's)
 * reads the change log (the row the write's trigger added) and broadcasts what is new. One RPC on a plain stub, unless this
 * isolate woke the feed less than WAKE_WINDOW_MS ago (it is still reading the log then). The Agents
 * SDK starts an agent on its first RPC by itself (it wraps the agent's own async methods), so
 * getAgentByName's separate start-up call would be one more round trip. A failure is logged; the
 * write stands, delta sync has it, and the feed reads it at its next wake or start.
 */
export async function wakeTodoFeed(env: Env, logger: Logger, owner: Owner): Promise<void> {
  const name = feedName(owner);
  const now = Date.now();
  if (now - (lastWakes.get(name) ?? -Infinity) < WAKE_WINDOW_MS) return;
  lastWakes.set(name, now);
  forgetOldWakes(now);
  try {
    await env.TodoFeedAgent.getByName(name).wake();
  } catch (err) {
    lastWakes.delete(name);
    logger.error("todo_feed_wake_failed", { feed: name, error: String(err) });
  }
}
