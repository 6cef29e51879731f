// One open socket on each side's live feed while the writes run: the publish then does its full work
// (a broadcast to a listener), and the bench can count and time what the listener hears.
import { openSocket } from "../../test/e2e/ws-client.ts";

const ws = (url) => url.replace(/^http/, "ws");

/** The service's feed of `user` (`/agents/todo-feed-agent/user-<id>`), opened with a connect ticket. */
export async function openServiceFeed(serviceUrl, user) {
  const res = await fetch(`${serviceUrl}/api/agents/tickets`, {
    method: "POST",
    headers: { Authorization: `Bearer ${user.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ agent: "todo-feed-agent", name: `user-${user.userId}` }),
  });
  if (res.status !== 201) throw new Error(`ticket: ${res.status} ${await res.text()}`);
  const { ticket } = (await res.json()).data;
  const path = `/agents/todo-feed-agent/user-${user.userId}?ticket=${encodeURIComponent(ticket)}`;
  return openSocket(ws(serviceUrl) + path);
}

/** The baseline's feed of its bench user (a bare Durable Object with the hibernation API). */
export function openBaselineFeed(baselineUrl, userId) {
  return openSocket(`${ws(baselineUrl)}/feed/${userId}`);
}

/** The todo events a socket has heard so far (the Agents SDK also sends its own protocol frames). */
export const todoEvents = (socket) =>
  socket.frames.filter((f) => typeof f.data?.type === "string" && f.data.type.startsWith("todo."));
