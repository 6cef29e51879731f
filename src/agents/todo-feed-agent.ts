// Runs in the Durable Object: one TodoFeedAgent per user (`user-<id>`), the live feed of their todo writes.
import { Agent } from "agents";
import { createLogger } from "../core/logger";
import { errorBody } from "../http/errors";
import type { TodoChangeRow } from "../todos/todo-changes.queries";
import { eventOfChange, feedOwner, type TodoEvent } from "../todos/todo-events";
import { closedSubAgentRoute } from "./agent-paths";

// Events kept for RPC subscribers that poll (eventsSince); older ones are dropped, delta sync has them all.
export const KEPT_EVENTS = 1_000;
const MAX_PAGE = 500;
// Older events go in steps of this many, not one statement per publish.
const TRIM_EVERY = 64;
// The change-log id up to which the feed has taken in the log (storage.kv, beside the events).
const LOG_CURSOR = "todo-feed:log-cursor";
// A user's newest changes after a change id (todo_changes_table, src/db/sync-schema.ts). Plain SQL: this
// module loads with every Durable Object isolate, and drizzle with the schema modules would move into
// chunks shared with the HTTP app (scripts/build-worker.mjs), for one read when a feed starts.
const LATEST_CHANGES =
  "SELECT id, todoId, kind, version FROM todo_changes_table WHERE userId = ? AND id > ? ORDER BY id DESC LIMIT ?";

/** An event as RPC subscribers read it: `seq` orders this feed's events (its own counter). */
export type FeedEvent = TodoEvent & { seq: number };

export interface FeedPage {
  events: FeedEvent[];
  /** Pass back as `after` for the next call. */
  cursor: number;
  /** False when events after `after` were already dropped: catch up with GET /api/todos?updatedSince. */
  complete: boolean;
}

// A todo's version is raised by every write, so a todo id and version name one change.
const changeKey = (event: { id: number; version: number }) => `${event.id}:${event.version}`;

/**
 * Broadcasts every todo write of its user to the user's open sockets (only the owner may connect: see
 * src/agents/mount.ts), and keeps the last KEPT_EVENTS for other Workers calling eventsSince() over a
 * Durable Object binding. Clients only listen: no callables, no client state. When it starts (first
 * use, or after an eviction or restart) it takes from the change log what it missed.
 */
export class TodoFeedAgent extends Agent<Env> {
  private tableReady = false;
  private sinceTrim = 0;
  // Events the start-up catch-up took from the log: their own publish, should it still come, is a repeat.
  private readonly caughtUp = new Set<string>();

  private events(): SqlStorage {
    const sql = this.ctx.storage.sql;
    if (!this.tableReady) {
      sql.exec(
        "CREATE TABLE IF NOT EXISTS feed_events (seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL)",
      );
      this.tableReady = true;
    }
    return sql;
  }

  /** Keeps the event and sends it to every open socket. */
  private take(event: TodoEvent): void {
    const sql = this.events();
    const json = JSON.stringify({ type: event.type, id: event.id, version: event.version });
    sql.exec("INSERT INTO feed_events (event) VALUES (?)", json);
    if (++this.sinceTrim >= TRIM_EVERY) {
      sql.exec("DELETE FROM feed_events WHERE seq <= (SELECT max(seq) FROM feed_events) - ?", KEPT_EVENTS);
      this.sinceTrim = 0;
    }
    // Every socket here is its owner's listener, accepted by the SDK (no sub-agents, nothing else
    // connects), so the SDK's broadcast, which reads each socket's attachment per message, adds nothing.
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(json);
      } catch {
        // Closing: the SDK's close handling removes it.
      }
    }
  }

  async onStart(): Promise<void> {
    try {
      await this.catchUp();
    } catch (err) {
      // The feed still works; the next start tries again.
      const logger = createLogger({ agent: "todo-feed-agent", feed: this.name }, this.env.LOG_LEVEL);
      logger.error("todo_feed_catch_up_failed", { error: String(err) });
    }
  }

  /**
   * Takes in the user's changes (D1) this feed has not heard of since its last start: a publish that
   * never arrived (the feed was evicted or restarting, or the Worker failed to send it). At most the
   * newest KEPT_EVENTS, oldest first, each kept and broadcast like a publish.
   */
  private async catchUp(): Promise<void> {
    const userId = feedOwner(this.name);
    if (userId === null) return;
    const after = this.ctx.storage.kv.get<number>(LOG_CURSOR) ?? 0;
    const { results: changes } = await this.env.DB.prepare(LATEST_CHANGES)
      .bind(userId, after, KEPT_EVENTS)
      .all<Pick<TodoChangeRow, "id" | "todoId" | "kind" | "version">>();
    if (changes.length === 0) return;
    const rows = this.events().exec<{ event: string }>("SELECT event FROM feed_events").toArray();
    const known = new Set(rows.map((row) => changeKey(JSON.parse(row.event) as TodoEvent)));
    for (const change of changes.toReversed()) {
      const event = eventOfChange(change);
      if (known.has(changeKey(event))) continue;
      this.caughtUp.add(changeKey(event));
      this.take(event);
    }
    this.ctx.storage.kv.put(LOG_CURSOR, changes[0]!.id);
  }

  /** RPC from the todo writes (src/todos/todo-events.ts), after their D1 write committed. */
  async publish(event: TodoEvent): Promise<void> {
    if (this.caughtUp.delete(changeKey(event))) return;
    this.take(event);
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
