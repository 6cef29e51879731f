// Runs in the Durable Object: one TodoFeedAgent per user (`user-<id>`), the live feed of their todo writes.
import { Agent } from "agents";
import { errorBody } from "../http/errors";
import type { TodoEvent } from "../todos/todo-events";
import { closedSubAgentRoute } from "./agent-paths";
import { destroyAndReset } from "../chats/agent-reset";

// Events kept for RPC subscribers that poll (eventsSince); older ones are dropped, delta sync has them all.
export const KEPT_EVENTS = 1_000;
const MAX_PAGE = 500;

/** An event as RPC subscribers read it: `seq` orders this feed's events (its own counter). */
export type FeedEvent = TodoEvent & { seq: number };

export interface FeedPage {
  events: FeedEvent[];
  /** Pass back as `after` for the next call. */
  cursor: number;
  /** False when events after `after` were already dropped: catch up with GET /api/todos?updatedSince. */
  complete: boolean;
}

/**
 * Broadcasts every todo write of its user to the user's open sockets (only the owner may connect: see
 * src/agents/mount.ts), and keeps the last KEPT_EVENTS for other Workers calling eventsSince() over a
 * Durable Object binding. Clients only listen: no callables, no client state.
 */
export class TodoFeedAgent extends Agent<Env> {
  private tableReady = false;

  private events(): void {
    if (this.tableReady) return;
    this.ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS feed_events (seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL)",
    );
    this.tableReady = true;
  }

  /** RPC from the todo writes (src/todos/todo-events.ts), after their D1 write committed. */
  async publish(event: TodoEvent): Promise<void> {
    this.events();
    const json = JSON.stringify({ type: event.type, id: event.id, version: event.version });
    const sql = this.ctx.storage.sql;
    sql.exec("INSERT INTO feed_events (event) VALUES (?)", json);
    sql.exec("DELETE FROM feed_events WHERE seq <= (SELECT max(seq) FROM feed_events) - ?", KEPT_EVENTS);
    this.broadcast(json);
  }

  /** RPC for other Workers: the kept events after `after` (0: the oldest kept), oldest first. */
  async eventsSince(after = 0, limit = 100): Promise<FeedPage> {
    if (!Number.isSafeInteger(after) || after < 0)
      throw new TypeError("after must be a non-negative integer");
    const size = Number.isSafeInteger(limit) ? Math.min(Math.max(limit, 1), MAX_PAGE) : 100;
    this.events();
    const rows = this.sql<{ seq: number; event: string }>`
      SELECT seq, event FROM feed_events WHERE seq > ${after} ORDER BY seq LIMIT ${size}`;
    const [oldest] = this.sql<{ seq: number | null }>`SELECT min(seq) AS seq FROM feed_events`;
    const events = rows.map((row) => ({ ...(JSON.parse(row.event) as TodoEvent), seq: row.seq }));
    return {
      events,
      cursor: events.at(-1)?.seq ?? after,
      complete: oldest?.seq == null || oldest.seq <= after + 1,
    };
  }

  /**
   * RPC from a user's delete (src/chats/agent-wipes.ts): the kept events and all storage go, sockets
   * close. Idempotent. The call ends in the object's reset (src/chats/agent-reset.ts).
   */
  async wipe(): Promise<void> {
    await destroyAndReset(this.ctx, () => this.destroy());
  }

  // Clients listen only: a state push (`cf_agent_state`) is refused.
  validateStateChange(): void {
    throw new Error("The todo feed is read-only");
  }

  // The SDK's sub-agent routing (`/sub/<agent>/<name>`) would create child instances: closed.
  async onBeforeSubAgent(): Promise<Response> {
    return closedSubAgentRoute();
  }

  /** Plain HTTP has nothing here: the feed is a WebSocket (or RPC from another Worker). */
  async onRequest(): Promise<Response> {
    return Response.json(errorBody("Not found"), { status: 404 });
  }
}
