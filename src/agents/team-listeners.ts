// Runs in the Durable Object: the members' feeds a team's feed (`org-<id>`) passes its events to.
import { createLogger } from "../core/logger";
import { feedName } from "../core/feed-names";
import { directoryBinding } from "../db/shard-names";
import { memberName } from "./feed-teams.queries";

// Presence changes within this long go out as one frame.
const PRESENCE_DELAY_MS = 50;

/** Who of a team has a live feed open now, as the presence frame lists them. */
export interface PresentMember {
  id: number;
  username: string;
}

/** What each member's sockets receive when someone of the team comes or goes. */
export interface PresenceFrame {
  type: "presence";
  orgId: number;
  online: PresentMember[];
}

/**
 * The listeners of one team's feed: members whose own feed (`user-<id>`) has sockets open, kept in
 * the team feed's storage so an eviction forgets none. Each batch of events (one read of the team's
 * log) is one RPC per listener, not per socket nor per member: a team of 50 with 5 online costs 5. A listener whose feed answers that it
 * no longer listens, or who leaves the team, is dropped at once.
 */
export class TeamListeners {
  private ready = false;
  private presenceDue?: Promise<void>;
  // Raised for a member dropped from the team: an add that read the membership before it loses.
  private readonly removals = new Map<number, number>();

  constructor(
    private readonly env: Env,
    private readonly storage: DurableObjectStorage,
    private readonly orgId: number,
  ) {}

  private sql(): SqlStorage {
    const sql = this.storage.sql;
    if (!this.ready) {
      sql.exec(
        "CREATE TABLE IF NOT EXISTS team_listeners (userId INTEGER PRIMARY KEY, username TEXT NOT NULL)",
      );
      this.ready = true;
    }
    return sql;
  }

  any(): boolean {
    return this.sql().exec("SELECT 1 FROM team_listeners LIMIT 1").toArray().length > 0;
  }

  online(): PresentMember[] {
    return this.sql()
      .exec<{ userId: number; username: string }>(
        "SELECT userId, username FROM team_listeners ORDER BY userId",
      )
      .toArray()
      .map((row) => ({ id: row.userId, username: row.username }));
  }

  private presence(): string {
    return JSON.stringify({
      type: "presence",
      orgId: this.orgId,
      online: this.online(),
    } satisfies PresenceFrame);
  }

  /**
   * Adds a member's feed, after reading in D1 that they are a member: the team's presence frame (as
   * sent: a string crosses RPC without a result to dispose), or null for a non-member. The others hear
   * of the newcomer.
   */
  async add(userId: number): Promise<string | null> {
    const removals = this.removals.get(userId) ?? 0;
    const username = await memberName(directoryBinding(this.env), this.orgId, userId);
    if (username === null || (this.removals.get(userId) ?? 0) !== removals) return null;
    const added = this.sql().exec(
      "INSERT OR IGNORE INTO team_listeners (userId, username) VALUES (?, ?)",
      userId,
      username,
    ).rowsWritten;
    if (added > 0) void this.announce();
    return this.presence();
  }

  /** Drops a member's feed (its last socket closed); the others hear of it. */
  async remove(userId: number): Promise<void> {
    const removed = this.sql().exec("DELETE FROM team_listeners WHERE userId = ?", userId).rowsWritten;
    if (removed > 0) void this.announce();
  }

  /**
   * Tells every listener who is online, PRESENCE_DELAY_MS from now, once for all the comings and goings
   * meanwhile: 50 members connecting at once cost 50 RPCs, not one broadcast to all per arrival.
   */
  private announce(): Promise<void> {
    this.presenceDue ??= scheduler.wait(PRESENCE_DELAY_MS).then(() => {
      this.presenceDue = undefined;
      return this.send([this.presence()]);
    });
    return this.presenceDue;
  }

  /** A member left or was removed: nothing more reaches their feed, which is told at once. */
  async drop(userId: number): Promise<void> {
    this.removals.set(userId, (this.removals.get(userId) ?? 0) + 1);
    await this.remove(userId);
    await this.env.TodoFeedAgent.getByName(feedName(userId)).leaveTeam(this.orgId);
  }

  /** The team is deleted: every listening feed is told, and the listeners go. */
  async dissolve(): Promise<void> {
    const members = this.online();
    this.sql().exec("DELETE FROM team_listeners");
    await Promise.all(
      members.map((m) => this.env.TodoFeedAgent.getByName(feedName(m.id)).leaveTeam(this.orgId)),
    );
  }

  /** Passes frames to every listener's feed; a feed that no longer listens is dropped. */
  async send(frames: string[]): Promise<void> {
    const listeners = this.online();
    const gone: number[] = [];
    await Promise.all(
      listeners.map(async ({ id }) => {
        try {
          const listening = await this.env.TodoFeedAgent.getByName(feedName(id)).deliver(this.orgId, frames);
          if (!listening) gone.push(id);
        } catch (err) {
          const logger = createLogger(
            { agent: "todo-feed-agent", feed: `org-${this.orgId}` },
            this.env.LOG_LEVEL,
          );
          logger.error("team_feed_delivery_failed", { userId: id, error: String(err) });
        }
      }),
    );
    for (const id of gone) await this.remove(id);
  }
}
