// Runs in the Durable Object: a socket lives no longer than the credential that opened it.
import type { Connection } from "agents";
import { AUTH_FAILURE_MESSAGES, type AuthFailure } from "../auth/authenticate";
import { credentialLiveness, type CredentialIdentity, type Liveness } from "../auth/credential-liveness";
import { openDatabases } from "../db/databases";
import { createLogger } from "../core/logger";
import { registerSockets, unregisterSockets } from "./agent-sockets.queries";
import type { RoutableAgent } from "./agent-paths";
import { statedCredential } from "./socket-credential";

// WebSocket.OPEN
const OPEN = 1;
// The SDK keeps a schedule's time in whole seconds: its alarm may come up to this much early.
const ALARM_RESOLUTION_MS = 1_000;

/** The close code of a socket whose credential ended (after a `credential_ended` frame). */
export const CREDENTIAL_ENDED_CLOSE = 4401;

/** The close code of a socket whose instance was deleted (a chat's delete, or its account's). */
export const INSTANCE_DELETED_CLOSE = 4410;

/** Closes every socket of an instance that is being deleted, before its storage goes. */
export async function closeForDelete(connections: Iterable<Connection>): Promise<void> {
  let closing = 0;
  for (const connection of connections) {
    try {
      connection.close(INSTANCE_DELETED_CLOSE, "Deleted");
      closing++;
    } catch {
      // Already closing.
    }
  }
  // The close frames leave with the next turn of the event loop; the reset that follows would drop them.
  if (closing > 0) await scheduler.wait(0);
}

/** What a socket receives for a frame not acted on because its credential could not be read (D1 down). */
const UNCHECKED_MESSAGE = "Your sign-in could not be checked just now: send again shortly";

/** What a socket receives, once, before it closes with CREDENTIAL_ENDED_CLOSE. */
export interface CredentialEndedFrame {
  type: "credential_ended";
  /** The same words /api answers a request with that credential (src/auth/authenticate.ts). */
  message: string;
}

interface GuardedState {
  credential?: CredentialIdentity;
  /** When the credential ends by itself (a session's end, a key's expiry), ms since the epoch. */
  endsAt?: number | null;
}

/** What the guard needs of its agent. */
export interface GuardedAgent {
  agent: RoutableAgent;
  name: string;
  env: Env;
  ctx: DurableObjectState;
  getConnections(): Iterable<Connection>;
  /** Calls the agent's closeEndedSockets() at `at` (an alarm: it outlives the instance). */
  scheduleCheck(at: Date): Promise<unknown>;
}

const stateOf = (connection: Connection) => (connection.state ?? {}) as GuardedState;
/** The credential a socket was opened with (stated by the Worker gate), or null for one opened without. */
export const socketCredentialOf = (connection: Connection): CredentialIdentity | null =>
  stateOf(connection).credential ?? null;
const credentialKey = (credential: CredentialIdentity) => JSON.stringify(credential);

function remember(connection: Connection, update: GuardedState): void {
  connection.setState((previous: unknown) => ({
    ...(previous !== null && typeof previous === "object" ? previous : {}),
    ...update,
  }));
}

/**
 * Keeps, for each socket opened with a credential (stated by the Worker gate), which one it was, and
 * closes the socket once that credential ends: when a credential-ending write asks (recheck(), from
 * src/agents/socket-sweep.ts), at the credential's own end (an alarm), and at the latest when the
 * socket sends anything (admit()). Every check reads D1 afresh. A socket opened without a credential
 * (a public counter or chat with AGENTS_REQUIRE_AUTH off) is left alone.
 */
export class SocketGuard {
  // Registry writes of this instance run one after another, so an open and a close keep their order.
  private registryWrites: Promise<void> = Promise.resolve();
  // The latest admission check of each socket still running, by connection id.
  private readonly admissions = new Map<string, Promise<boolean>>();

  constructor(private readonly host: GuardedAgent) {}

  private get db() {
    return openDatabases(this.host.env).directory;
  }

  /** On a socket's open: keeps its credential, lists the instance in the registry, then checks the credential once. */
  opened(connection: Connection, upgrade: Request): void {
    const credential = statedCredential(upgrade);
    if (!credential) return;
    remember(connection, { credential });
    // Listed first, checked after: a credential ended before the listing is seen by this check, one
    // ended after it is seen by the sweep that reads the listing.
    const listed = this.writeRegistry(() => registerSockets(this.db, this.rowOf(credential)));
    const checked = listed.then(() => this.check([connection]));
    // Unread now (D1 down): the socket's next frame, or the next sweep, checks again.
    this.host.ctx.waitUntil(checked.catch((err: unknown) => this.logCheckFailure(err)));
  }

  /** On a socket's close: the registry forgets the instance once the user's last socket here closed. */
  closed(connection: Connection): void {
    const credential = stateOf(connection).credential;
    if (credential) this.host.ctx.waitUntil(this.forgetIfNone(credential.userId, connection));
  }

  /**
   * Before acting on anything a socket sends: true when its credential still holds (or it has none);
   * otherwise the socket is told, closed, and false.
   */
  admit(connection: Connection): Promise<boolean> {
    if (!stateOf(connection).credential) return Promise.resolve(true);
    // One socket's checks settle in the order its frames came, so its frames are handled in that order.
    const previous = this.admissions.get(connection.id) ?? Promise.resolve(true);
    const admitted = previous.then(() => this.checkFrame(connection));
    this.admissions.set(connection.id, admitted);
    const forget = () => {
      if (this.admissions.get(connection.id) === admitted) this.admissions.delete(connection.id);
    };
    admitted.then(forget, forget);
    return admitted;
  }

  // Fails closed: a frame whose credential cannot be read now is not acted on; the socket stays.
  private async checkFrame(connection: Connection): Promise<boolean> {
    try {
      return (await this.check([connection])) === 0;
    } catch (err) {
      this.logCheckFailure(err);
      try {
        connection.send(JSON.stringify({ type: "credential_unchecked", message: UNCHECKED_MESSAGE }));
      } catch {
        // Closing.
      }
      return false;
    }
  }

  /** RPC from a credential-ending write: closes the user's sockets whose credential ended; answers how many. */
  async recheck(userId: number): Promise<number> {
    const closed = await this.check(this.openSocketsOf(userId));
    await this.forgetIfNone(userId);
    return closed;
  }

  /** The alarm at a credential's end: closes the sockets whose credential ended by now. */
  async closeEnded(): Promise<void> {
    const now = Date.now();
    const ends = new Map<Connection, number>();
    for (const connection of this.host.getConnections()) {
      const endsAt = stateOf(connection).endsAt;
      if (typeof endsAt === "number" && endsAt <= now + ALARM_RESOLUTION_MS) ends.set(connection, endsAt);
    }
    const last = Math.max(now, ...ends.values());
    if (last > now) await scheduler.wait(last - now);
    await this.check([...ends.keys()]);
  }

  /** Checks each socket's credential (each distinct credential once); closes those that ended. */
  private async check(sockets: Connection[]): Promise<number> {
    const verdicts = new Map<string, Promise<Liveness>>();
    const results = await Promise.all(
      sockets.map(async (connection) => {
        const credential = stateOf(connection).credential;
        if (!credential) return false;
        const key = credentialKey(credential);
        let verdict = verdicts.get(key);
        if (!verdict) {
          verdict = credentialLiveness(this.db, credential);
          verdicts.set(key, verdict);
        }
        const liveness = await verdict;
        if (liveness.live) {
          await this.noteEnd(connection, liveness.endsAt);
          return false;
        }
        this.end(connection, liveness.reason);
        return true;
      }),
    );
    return results.filter(Boolean).length;
  }

  // The first time a socket's credential is seen with an end, an alarm is set for it.
  private async noteEnd(connection: Connection, endsAt: number | null): Promise<void> {
    if (stateOf(connection).endsAt === endsAt) return;
    remember(connection, { endsAt });
    if (endsAt !== null) await this.host.scheduleCheck(new Date(endsAt));
  }

  private logCheckFailure(err: unknown): void {
    createLogger({ agent: this.host.agent }, this.host.env.LOG_LEVEL).error("agent_socket_check_failed", {
      error: String(err),
    });
  }

  private end(connection: Connection, reason: AuthFailure): void {
    const message = AUTH_FAILURE_MESSAGES[reason];
    createLogger({ agent: this.host.agent }, this.host.env.LOG_LEVEL).info("agent_socket_credential_ended", {
      reason,
      userId: stateOf(connection).credential?.userId,
    });
    try {
      connection.send(JSON.stringify({ type: "credential_ended", message } satisfies CredentialEndedFrame));
      connection.close(CREDENTIAL_ENDED_CLOSE, message);
    } catch {
      // Already closing.
    }
  }

  private openSocketsOf(userId: number, except?: Connection): Connection[] {
    return [...this.host.getConnections()].filter(
      (connection) =>
        connection.id !== except?.id &&
        connection.readyState === OPEN &&
        stateOf(connection).credential?.userId === userId,
    );
  }

  // Decided when the write runs, after every registry write queued before it: a socket that opened
  // meanwhile keeps the listing.
  private forgetIfNone(userId: number, closing?: Connection): Promise<void> {
    return this.writeRegistry(async () => {
      if (this.openSocketsOf(userId, closing).length === 0) {
        await unregisterSockets(this.db, this.rowOf({ userId }));
      }
    });
  }

  private rowOf({ userId }: { userId: number }) {
    return { userId, agent: this.host.agent, name: this.host.name };
  }

  private writeRegistry(write: () => Promise<void>): Promise<void> {
    const next = this.registryWrites.then(write);
    this.registryWrites = next.catch((err: unknown) => {
      createLogger({ agent: this.host.agent }, this.host.env.LOG_LEVEL).error("agent_sockets_write_failed", {
        error: String(err),
      });
    });
    return this.registryWrites;
  }
}
