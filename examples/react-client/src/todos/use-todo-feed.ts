import { useAgent } from "agents/react";
import { useRef } from "react";
import { agentOptions } from "../agents/agent-options";

/**
 * What the service publishes after every write of one of your todos or of a team's you belong to
 * (REST, chat tools, MCP); a team's events name it in `orgId` (docs/teams.md, Live).
 */
export interface TodoEvent {
  type: "todo.created" | "todo.updated" | "todo.deleted";
  id: number;
  version: number;
  orgId?: number;
}

/** Who of a team has a feed open: sent when the socket opens and whenever it changes. */
export interface PresenceEvent {
  type: "presence";
  orgId: number;
  online: { id: number; username: string }[];
}

/** You left the team, were removed, or it was deleted: its events stop. */
export interface TeamLeftEvent {
  type: "team.left";
  orgId: number;
}

export type FeedMessage = TodoEvent | PresenceEvent | TeamLeftEvent;

function feedMessage(data: unknown): FeedMessage | null {
  if (typeof data !== "string") return null;
  try {
    const event = JSON.parse(data) as { type?: unknown; id?: unknown; orgId?: unknown; online?: unknown };
    if (typeof event.type !== "string") return null;
    if (event.type.startsWith("todo.")) return typeof event.id === "number" ? (event as TodoEvent) : null;
    if (event.type === "presence")
      return typeof event.orgId === "number" && Array.isArray(event.online) ? (event as PresenceEvent) : null;
    if (event.type === "team.left") return typeof event.orgId === "number" ? (event as TeamLeftEvent) : null;
    return null;
  } catch {
    return null;
  }
}

/**
 * Listens to the signed-in user's live todo feed (`/agents/todo-feed-agent/user-<id>`, opened with a
 * connect ticket) and hands each todo, presence and team.left message to `onEvent`. The SDK's own frames (identity, state) are
 * ignored. A reconnect fetches a new ticket; what changed while the socket was down shows at the next
 * list load.
 */
export function useTodoFeed(
  userId: number,
  handlers: { onEvent: (event: FeedMessage) => void; onLive: (live: boolean) => void },
) {
  // The latest handlers, without reopening the socket when they change.
  const current = useRef(handlers);
  current.current = handlers;
  useAgent({
    ...agentOptions("todo-feed-agent", `user-${userId}`),
    onOpen: () => current.current.onLive(true),
    onClose: () => current.current.onLive(false),
    onMessage: (message: MessageEvent) => {
      const event = feedMessage(message.data);
      if (event) current.current.onEvent(event);
    },
  });
}
