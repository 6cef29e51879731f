import { ownerKey, type Owner } from "../core/owner";
import { routeCacheTtlMs } from "../core/config";
import { Failure } from "../core/failures";
import { createDb, type Db } from "./client";
import { foreignKeyViolation } from "./errors";
import { routeCache } from "./route-cache";
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
  /** `owner`'s route if known without a read: one this isolate remembers. */
  knownRoute(owner: Owner): WorkspaceRoute | undefined;
  /**
   * route(owner), given what the caller's own batch found (`found`, undefined for no row) for a read sent
   * at `readAt`: a workspace missing is made, a ready one remembered.
   */
  routeFound(owner: Owner, found: WorkspaceRoute | undefined, readAt: number): Promise<WorkspaceRoute>;
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
 * The resolver. A route is read at most once per object (a request, a scheduled run, one Durable Object
 * call), and a ready one is remembered by the isolate for ROUTE_CACHE_TTL_MS (src/db/route-cache.ts): a
 * move waits that long, and the longest request, before its fence, so no remembered route outlives the
 * switch; a write that still finds the old shard is stopped by the source's fence.
 * With `sessions`, each database touched runs in one D1 session started at the bookmark sent for it.
 */
export function openDatabases(env: Env, sessions?: SessionStart): SessionDatabases {
  const opened = new Map<ShardName, { db: Db; session?: D1DatabaseSession }>();
  const routes = new Map<string, Promise<WorkspaceRoute>>();
  const remembered = routeCache(routeCacheTtlMs(env));
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

  const completeRoute = async (owner: Owner, found: WorkspaceRoute | undefined, readAt: number) => {
    // Users and teams get their workspace when they are made; one made otherwise (a script) gets it here.
    const route =
      found ??
      (await ensureWorkspace(directory, owner, placementShards(env)).catch((err: unknown) => {
        throw foreignKeyViolation(err) ? new WorkspaceOwnerGone(owner) : err;
      }));
    remembered.remember(ownerKey(owner), route, readAt);
    return route;
  };
  const readRoute = async (owner: Owner): Promise<WorkspaceRoute> => {
    const readAt = Date.now();
    const [found] = await selectWorkspaceRoute(directory, owner);
    return completeRoute(owner, found, readAt);
  };
  /** This run's route of `owner`, from `resolve` the first time it is asked for. */
  const settle = (owner: Owner, resolve: () => Promise<WorkspaceRoute>): Promise<WorkspaceRoute> => {
    const key = ownerKey(owner);
    let known = routes.get(key);
    if (!known) {
      known = resolve();
      routes.set(key, known);
      // A failed read is not remembered: a retry in the same run reads again.
      known.catch(() => routes.delete(key));
    }
    return known;
  };
  const knownRoute = (owner: Owner) => remembered.get(ownerKey(owner));
  const route = (owner: Owner): Promise<WorkspaceRoute> =>
    settle(owner, () => {
      const cached = knownRoute(owner);
      return cached ? Promise.resolve(cached) : readRoute(owner);
    });

  return {
    directory,
    route,
    knownRoute,
    routeFound: (owner, found, readAt) => settle(owner, () => completeRoute(owner, found, readAt)),
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
