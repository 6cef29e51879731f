// Runs in the Durable Object: one TodoFeedAgent per user (`user-<id>`), the live feed of their todo
// writes and of their teams', and one per team (`org-<id>`), which passes the team's on to its members'.
import { Agent, type Connection, type ConnectionContext } from "agents";
import { createLogger } from "../core/logger";
import type { Owner } from "../core/owner";
import { errorBody } from "../http/errors";
import { feedName, feedOwner } from "../core/feed-names";
import { WAKE_WINDOW_MS, type TodoEvent } from "../todos/todo-events";
import { closedSubAgentRoute } from "./agent-paths";
import { destroyAndReset } from "../core/agent-reset";
import { directoryBinding, workspaceBinding } from "../db/shard-names";
import { teamsOf } from "./feed-teams.queries";
import { readLog } from "./feed-log";
import { closeForDelete, SocketGuard } from "./socket-guard";
import { TeamListeners } from "./team-listeners";

// Events kept for RPC subscribers that poll (eventsSince); older ones are dropped, delta sync has them all.
export const KEPT_EVENTS = 1_000;
const MAX_PAGE = 500;
// Older events go in steps of this many, not one statement per event.
const TRIM_EVERY = 64;
// While woken, with listeners, the log is read this often: an event reaches them well within a second.
const FOLLOW_EVERY_MS = 50;
// A team's feed reads less often: each read with news costs one RPC per member online, so under a
// stream of writes this bounds the fan-out to 5 batches a second (and one more per wake, which the
// Worker sends at most once a second per isolate), whatever the write rate.
const TEAM_FOLLOW_EVERY_MS = 200;
// A woken feed reads the log until this long after the wake window: a write the window let pass
// without a wake committed before its end.
const FOLLOW_MARGIN_MS = 500;

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
// The teams a user's feed listens to while its sockets are open (storage.kv: it outlives hibernation).
const TEAMS = "todo-feed:teams";
// WebSocket.OPEN
const OPEN = 1;

/** What a member's sockets receive when they leave the team (or it is deleted): nothing more of it comes. */
export interface TeamLeftFrame {
  type: "team.left";
  orgId: number;
}

/**
 * The live feed of one user's todo writes, read from the change log (D1) that every write adds to in
 * its own transaction: each change once, in commit order, broadcast to the user's open sockets (only
 * the owner may connect: see src/agents/mount.ts) and the last KEPT_EVENTS kept for other Workers
 * calling eventsSince() over a Durable Object binding. Writes only wake it (src/todos/todo-events.ts);
 * a feed that was evicted or restarting reads what it missed when it starts. Clients only listen: no
 * callables, no client state.
 *
 * Teams: a team's writes wake the team's feed (`org-<id>`, never opened by a socket), which reads the
 * team's log once and passes each batch of events to the feeds of the members who have sockets open
 * (TeamListeners), one RPC each; those send them on with the team's `orgId`. So a team write costs the
 * writer what a personal one does (one wake), and its fan-out one log read plus one RPC per online
 * member, whatever the team's size. A member's feed subscribes to its teams when a socket opens and
 * unsubscribes when the last closes; leaving or being removed drops them at once (dropMember()).
 * Presence: who of the team has a socket open, sent to each member's sockets when it changes.
 */
export class TodoFeedAgent extends Agent<Env> {
  private tableReady = false;
  private sinceTrim = 0;
  private followUntil = 0;
  private following = false;
  // Ends the follow loop's wait early (a wake while following).
  private readSoon?: () => void;
  // Log reads run one after another: two at once would take the same changes twice.
  private reading: Promise<void> = Promise.resolve();

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

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Listeners send nothing the feed acts on; still, a socket whose credential ended is closed first.
    const handle = this.onMessage.bind(this);
    this.onMessage = async (connection, message) => {
      if (await this.sockets.admit(connection)) return handle(connection, message);
    };
  }

  async onStart(): Promise<void> {
    await this.readNews();
  }

  // --- Sockets end with their credential (src/agents/socket-guard.ts).
  private guard?: SocketGuard;

  private get owner(): Owner | null {
    return feedOwner(this.name);
  }

  private teamListeners?: TeamListeners;

  /** The listeners, when this is a team's feed. */
  private get team(): TeamListeners | null {
    const owner = this.owner;
    if (owner?.kind !== "org") return null;
    this.teamListeners ??= new TeamListeners(this.env, this.ctx.storage, owner.orgId);
    return this.teamListeners;
  }

  private get sockets(): SocketGuard {
    this.guard ??= new SocketGuard({
      agent: "todo-feed-agent",
      name: this.name,
      env: this.env,
      ctx: this.ctx,
      getConnections: () => this.getConnections(),
      scheduleCheck: (at) =>
        this.schedule(at, "closeEndedSockets", { at: at.getTime() }, { idempotent: true }),
    });
    return this.guard;
  }

  async onClose(connection: Connection): Promise<void> {
    this.sockets.closed(connection);
    const open = [...this.getConnections()].some((c) => c.id !== connection.id && c.readyState === OPEN);
    if (!open) await this.stopListeningToTeams();
  }

  /** RPC from a credential-ending write (src/agents/socket-sweep.ts): answers how many sockets closed. */
  async recheckSockets(userId: number): Promise<number> {
    return this.sockets.recheck(userId);
  }

  /** Scheduled at a socket's credential's end. */
  async closeEndedSockets(): Promise<void> {
    await this.sockets.closeEnded();
  }
  // --- end of socket credentials

  /** RPC from the todo writes (src/todos/todo-events.ts), after their D1 write committed. */
  async wake(): Promise<void> {
    this.followUntil = Date.now() + WAKE_WINDOW_MS + FOLLOW_MARGIN_MS;
    if (!this.hasListeners()) return;
    // Already following: the write that woke it is read now, not at the next step.
    this.readSoon?.();
    void this.follow();
    // Should the instance go (evicted, restarted) before the window ends, this brings it back to read
    // the rest: an alarm outlives the instance. One pending at a time.
    await this.schedule((WAKE_WINDOW_MS + FOLLOW_MARGIN_MS) / 1000, "followLog", undefined, {
      idempotent: true,
    });
  }

  /** The wake's alarm: reads the log again, and follows it one more window. */
  async followLog(): Promise<void> {
    this.followUntil = Math.max(this.followUntil, Date.now() + WAKE_WINDOW_MS);
    await this.follow();
  }

  async onConnect(connection: Connection, ctx: ConnectionContext): Promise<void> {
    this.sockets.opened(connection, ctx.request);
    // Read before the new socket is listed: it starts from now (what came before, delta sync has); the
    // sockets already open get what is new, as at any read.
    await this.readNews();
    if (Date.now() < this.followUntil) void this.follow();
    // Not awaited: the socket opens at once, and its teams' presence follows.
    this.ctx.waitUntil(this.listenToTeams(connection));
  }

  // --- A member's feed and its teams.

  private userId(): number | null {
    const owner = this.owner;
    return owner?.kind === "user" ? owner.userId : null;
  }

  private listenedTeams(): number[] {
    return this.ctx.storage.kv.get<number[]>(TEAMS) ?? [];
  }

  /** Subscribes to the feed of each team the user belongs to now; the new socket gets each team's presence. */
  private async listenToTeams(connection: Connection): Promise<void> {
    const userId = this.userId();
    if (userId === null) return;
    let orgIds: number[];
    try {
      orgIds = await teamsOf(directoryBinding(this.env), userId);
    } catch (err) {
      this.log("todo_feed_teams_read_failed", { error: String(err) });
      return;
    }
    this.ctx.storage.kv.put(TEAMS, orgIds);
    const frames = await Promise.all(orgIds.map((orgId) => this.subscribe(orgId, userId)));
    for (const frame of frames) if (frame) this.sendTo([connection], frame);
  }

  /** The team's presence frame once this feed listens to it; null when the user is not a member. */
  private async subscribe(orgId: number, userId: number): Promise<string | null> {
    try {
      return await this.env.TodoFeedAgent.getByName(feedName({ kind: "org", orgId })).addListener(userId);
    } catch (err) {
      this.log("team_feed_subscribe_failed", { orgId, error: String(err) });
      return null;
    }
  }

  private async stopListeningToTeams(): Promise<void> {
    const userId = this.userId();
    const orgIds = this.listenedTeams();
    if (userId === null || orgIds.length === 0) return;
    this.ctx.storage.kv.delete(TEAMS);
    await Promise.all(
      orgIds.map((orgId) =>
        this.env.TodoFeedAgent.getByName(feedName({ kind: "org", orgId }))
          .removeListener(userId)
          .catch((err: unknown) => this.log("team_feed_unsubscribe_failed", { orgId, error: String(err) })),
      ),
    );
  }

  /** RPC from a team's feed: its frames, for this user's open sockets; false once this feed no longer listens. */
  async deliver(orgId: number, frames: string[]): Promise<boolean> {
    const sockets = this.openSockets();
    if (sockets.length === 0 || !this.listenedTeams().includes(orgId)) return false;
    for (const frame of frames) this.sendTo(sockets, frame);
    return true;
  }

  /** RPC: the user joined a team (created it, accepted an invitation); open sockets start to hear it. */
  async joinTeam(orgId: number): Promise<void> {
    const userId = this.userId();
    const sockets = this.openSockets();
    if (userId === null || sockets.length === 0) return;
    this.ctx.storage.kv.put(TEAMS, [...new Set([...this.listenedTeams(), orgId])]);
    const frame = await this.subscribe(orgId, userId);
    if (frame) this.sendTo(this.openSockets(), frame);
  }

  /** RPC from a team's feed: the user left the team, was removed, or it was deleted. Nothing more of it comes. */
  async leaveTeam(orgId: number): Promise<void> {
    const teams = this.listenedTeams();
    if (!teams.includes(orgId)) return;
    this.ctx.storage.kv.put(
      TEAMS,
      teams.filter((id) => id !== orgId),
    );
    this.sendTo(this.openSockets(), JSON.stringify({ type: "team.left", orgId } satisfies TeamLeftFrame));
  }

  // --- A team's feed and its members' feeds (src/agents/team-listeners.ts).

  private requireTeam(): TeamListeners {
    const team = this.team;
    if (!team) throw new TypeError("Not a team's feed");
    return team;
  }

  /** RPC from a member's feed as a socket opens: the team's presence frame, or null for a non-member. */
  async addListener(userId: number): Promise<string | null> {
    const team = this.requireTeam();
    // Takes what came before first, so the new listener hears only what comes after it joined.
    await this.readNews();
    return team.add(userId);
  }

  /** RPC from a member's feed as its last socket closes. */
  async removeListener(userId: number): Promise<void> {
    await this.requireTeam().remove(userId);
  }

  /** RPC from a member's removal or leaving (src/routes/org-members): nothing more reaches them, at once. */
  async dropMember(userId: number): Promise<void> {
    await this.requireTeam().drop(userId);
  }

  private openSockets(): WebSocket[] {
    return this.ctx.getWebSockets().filter((socket) => socket.readyState === OPEN);
  }

  private sendTo(sockets: Iterable<WebSocket>, frame: string): void {
    for (const socket of sockets) {
      try {
        socket.send(frame);
      } catch {
        // Closing: the SDK's close handling removes it.
      }
    }
  }

  private log(event: string, fields: Record<string, unknown>): void {
    createLogger({ agent: "todo-feed-agent", feed: this.name }, this.env.LOG_LEVEL).error(event, fields);
  }
  // --- end of teams

  /** RPC for other Workers: the kept events after `after` (0: the oldest kept), oldest first. */
  async eventsSince(after = 0, limit = 100): Promise<FeedPage> {
    if (!Number.isSafeInteger(after) || after < 0)
      throw new TypeError("after must be a non-negative integer");
    const size = Number.isSafeInteger(limit) ? Math.min(Math.max(limit, 1), MAX_PAGE) : 100;
    await this.readNews();
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

  private hasListeners(): boolean {
    return this.team?.any() ?? this.ctx.getWebSockets().length > 0;
  }

  /** Reads the log every FOLLOW_EVERY_MS (a team's: TEAM_FOLLOW_EVERY_MS) until the wake window is over or nobody listens. */
  private async follow(): Promise<void> {
    if (this.following) return;
    this.following = true;
    try {
      while (Date.now() < this.followUntil && this.hasListeners()) {
        await this.readNews();
        await new Promise<void>((resolve) => {
          this.readSoon = resolve;
          setTimeout(resolve, this.team ? TEAM_FOLLOW_EVERY_MS : FOLLOW_EVERY_MS);
        });
        this.readSoon = undefined;
      }
      await this.readNews();
    } finally {
      this.following = false;
    }
  }

  /** Takes the changes committed since the last read. */
  private readNews(): Promise<void> {
    const read = this.reading.then(() => this.takeNewChanges());
    this.reading = read.catch((err: unknown) =>
      this.log("todo_feed_log_read_failed", { error: String(err) }),
    );
    return this.reading;
  }

  private async takeNewChanges(): Promise<void> {
    const owner = this.owner;
    if (owner === null) return;
    const db = await workspaceBinding(this.env, owner);
    if (!db) return;
    const read = await readLog(db, this.ctx.storage.kv, owner, KEPT_EVENTS);
    if (!read) return;
    // A feed that kept events before it read the log (it took them from each write) skips those once.
    const kept = read.hadCursor ? new Set<string>() : this.keptChanges();
    const frames: string[] = [];
    for (const event of read.events) if (!kept.has(changeKey(event))) frames.push(this.take(event));
    read.done();
    // A team's feed has no sockets: its members' feeds send the batch on.
    if (frames.length > 0) await this.team?.send(frames);
  }

  private keptChanges(): Set<string> {
    const rows = this.events().exec<{ event: string }>("SELECT event FROM feed_events").toArray();
    return new Set(rows.map((row) => changeKey(JSON.parse(row.event) as TodoEvent)));
  }

  /** Keeps the event and sends it to every open socket; answers it as sent. */
  private take(event: TodoEvent): string {
    const sql = this.events();
    const named = event.orgId === undefined ? {} : { orgId: event.orgId };
    const json = JSON.stringify({ type: event.type, id: event.id, version: event.version, ...named });
    sql.exec("INSERT INTO feed_events (event) VALUES (?)", json);
    if (++this.sinceTrim >= TRIM_EVERY) {
      sql.exec("DELETE FROM feed_events WHERE seq <= (SELECT max(seq) FROM feed_events) - ?", KEPT_EVENTS);
      this.sinceTrim = 0;
    }
    // Every socket here is its owner's listener, accepted by the SDK (no sub-agents, nothing else
    // connects), so the SDK's broadcast, which reads each socket's attachment per message, adds nothing.
    this.sendTo(this.ctx.getWebSockets(), json);
    return json;
  }

  /**
   * RPC from a user's or a team's delete (src/chats/agent-wipes.ts): a team's feed tells its members'
   * feeds first (`team.left`); the kept events and all storage go, sockets close (4410,
   * src/agents/socket-guard.ts). Idempotent. The call ends in the object's reset (src/core/agent-reset.ts).
   */
  async wipe(): Promise<void> {
    await this.team?.dissolve();
    await closeForDelete(this.getConnections());
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
