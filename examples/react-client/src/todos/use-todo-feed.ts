import { useAgent } from "agents/react";
import { useRef } from "react";
import { agentOptions } from "../agents/agent-options";

/** What the service publishes after every write of one of your todos (REST, chat tools, MCP). */
export interface TodoEvent {
  type: "todo.created" | "todo.updated" | "todo.deleted";
  id: number;
  version: number;
}

function todoEvent(data: unknown): TodoEvent | null {
  if (typeof data !== "string") return null;
  try {
    const event = JSON.parse(data) as Partial<TodoEvent>;
    return typeof event.type === "string" && event.type.startsWith("todo.") && typeof event.id === "number"
      ? (event as TodoEvent)
      : null;
  } catch {
    return null;
  }
}

/**
 * Listens to the signed-in user's live todo feed (`/agents/todo-feed-agent/user-<id>`, opened with a
 * connect ticket) and hands each todo event to `onEvent`. The SDK's own frames (identity, state) are
 * ignored. A reconnect fetches a new ticket; what changed while the socket was down shows at the next
 * list load.
 */
export function useTodoFeed(
  userId: number,
  handlers: { onEvent: (event: TodoEvent) => void; onLive: (live: boolean) => void },
) {
  // The latest handlers, without reopening the socket when they change.
  const current = useRef(handlers);
  current.current = handlers;
  useAgent({
    ...agentOptions("todo-feed-agent", `user-${userId}`),
    onOpen: () => current.current.onLive(true),
    onClose: () => current.current.onLive(false),
    onMessage: (message: MessageEvent) => {
      const event = todoEvent(message.data);
      if (event) current.current.onEvent(event);
    },
  });
}
