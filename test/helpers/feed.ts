import type { SignedUpUser } from "./auth";
import { requestTicket } from "./agents";
import { connectWS, type TestSocket } from "./ws";

export const feedPath = (userId: number) => `/agents/todo-feed-agent/user-${userId}`;

/** A todo event as the feed sends it. */
export const isTodoEvent = (d: any) => typeof d?.type === "string" && d.type.startsWith("todo.");

/** Opens `user`'s live todo feed with a fresh connect ticket (the gate always asks for one). */
export async function openFeed(user: SignedUpUser): Promise<TestSocket> {
  const ticket = await requestTicket(user.token, "todo-feed-agent", `user-${user.userId}`);
  if (ticket.status !== 201) throw new Error(`ticket refused: ${ticket.status} ${ticket.text}`);
  return connectWS(`${feedPath(user.userId)}?ticket=${encodeURIComponent(ticket.body.data.ticket)}`);
}

/** Waits for the feed event `{ type, id, version }` and returns how long after `since` it came. */
export async function awaitEvent(
  socket: TestSocket,
  expected: { type: string; id: number; version: number },
  since: number,
): Promise<number> {
  const frame = await socket.waitFor(
    (d) => d?.type === expected.type && d.id === expected.id && d.version === expected.version,
    { timeoutMs: 5_000 },
  );
  return frame.at - since;
}
