import { ownerKey, type Owner } from "../core/owner";
import { Failure } from "../core/failures";
import { createDb, type Db } from "./client";
import { foreignKeyViolation } from "./errors";
import { WorkspaceOwnerGone } from "./workspace-errors";
import {
  dataShardNames,
  isShardName,
  LEGACY_SHARD,
  placementShards,
  shardBinding,
  type ShardName,
} from "./shard-names";
import {
  ensureWorkspace,
  legacyWorkspacesRemain,
  selectWorkspaceRoute,
  type WorkspaceRoute,
} from "./workspaces.queries";

export type { ShardName } from "./shard-names";

/**
 * The one way into D1 (issue 42): the directory (accounts, credentials, teams, memberships, invitations, the
 * account audit, the workspaces map) and the data database of each workspace (a user's personal data or a
 * team's: todos, attachments, change log, files, quotas, share links, uploads, chat index, AI usage, team audit).
 * Opened once per request (src/http/d1-session.ts) or per Durable Object / scheduled event with
 * openDatabases(env).
 */
export interface Databases {
  readonly directory: Db;
  /** The data database holding `owner`'s workspace (made on the emptiest shard if missing). */
  of(owner: Owner): Promise<Db>;
  /** `owner`'s workspace row: where it is, whether it is moving, its version. */
  route(owner: Owner): Promise<WorkspaceRoute>;
  /** One named database: LEGACY_SHARD or a bound DB_SHARD_<n> (a ShardUnavailable failure otherwise). */
  shard(name: ShardName): Db;
  /** Every data database, for work across workspaces: the directory while workspaces remain on it, then each DB_SHARD_<n>. */
  all(): Promise<readonly { shard: ShardName; db: Db }[]>;
}

/** The databases of one request, each in its own D1 session, and the bookmark each has reached. */
export interface SessionDatabases extends Databases {
  bookmarks(): Map<ShardName, string>;
}

/** Where a request's sessions start: a database's bookmark sent back, else the request's default. */
export interface SessionStart {
  sent: ReadonlyMap<ShardName, string>;
  first: "first-primary" | "first-unconstrained";
}

/** A workspace row names a database this Worker has no binding for (a config change mid-move): 503, retry. */
export class ShardUnavailable extends Failure {
  readonly kind = "unavailable";
  constructor(readonly shard: string) {
    super(`Data database ${shard} is not bound`);
  }
  override get publicMessage(): string {
    return "Storage is being reorganised: try again shortly";
  }
  override get retryAfterSeconds(): number {
    return 1;
  }
  override log() {
    return { level: "error" as const, event: "shard_unbound", fields: { shard: this.shard } };
  }
}

/**
 * The resolver. No route is remembered beyond this object's life (a request, a scheduled run, one Durable
 * Object call): each request reads `owner`'s row once, so a move's switch is seen by the next request at
 * once; a request that resolved the old shard before the switch is stopped by the source's fence.
 * With `sessions`, each database touched runs in one D1 session started at the bookmark sent for it.
 */
export function openDatabases(env: Env, sessions?: SessionStart): SessionDatabases {
  const opened = new Map<ShardName, { db: Db; session?: D1DatabaseSession }>();
  const routes = new Map<string, Promise<WorkspaceRoute>>();
  let legacyRemains: Promise<boolean> | undefined;

  const shard = (name: ShardName): Db => {
    const known = opened.get(name);
    if (known) return known.db;
    if (!isShardName(env, name)) throw new ShardUnavailable(name);
    const binding = shardBinding(env, name);
    const session = sessions ? binding.withSession(sessions.sent.get(name) ?? sessions.first) : undefined;
    const db = createDb(session ?? binding);
    opened.set(name, { db, session });
    return db;
  };
  const directory = shard(LEGACY_SHARD);

  const readRoute = async (owner: Owner): Promise<WorkspaceRoute> => {
    const [found] = await selectWorkspaceRoute(directory, owner);
    if (found) return found;
    // Users and teams get their workspace when they are made; one made otherwise (a script) gets it here.
    return ensureWorkspace(directory, owner, placementShards(env)).catch((err: unknown) => {
      throw foreignKeyViolation(err) ? new WorkspaceOwnerGone(owner) : err;
    });
  };
  const route = (owner: Owner): Promise<WorkspaceRoute> => {
    const key = ownerKey(owner);
    let known = routes.get(key);
    if (!known) {
      known = readRoute(owner);
      routes.set(key, known);
      // A failed read is not remembered: a retry in the same run reads again.
      known.catch(() => routes.delete(key));
    }
    return known;
  };

  return {
    directory,
    route,
    shard,
    of: async (owner) => shard((await route(owner)).shard),
    all: async () => {
      legacyRemains ??= legacyWorkspacesRemain(directory);
      const names = [...((await legacyRemains) ? [LEGACY_SHARD] : []), ...dataShardNames(env)];
      return names.map((name) => ({ shard: name, db: shard(name) }));
    },
    bookmarks: () => {
      const reached = new Map<ShardName, string>();
      for (const [name, { session }] of opened) {
        const bookmark = session?.getBookmark();
        if (bookmark) reached.set(name, bookmark);
      }
      return reached;
    },
  };
}
