import type { WorkspaceRoute } from "./workspaces.queries";

// Per isolate: the routes (src/db/databases.ts) of workspaces found "ready", so a request usually finds
// its data database without the directory. Why a remembered route is never wrong, and what a move waits
// for it, is in docs/architecture.md ("A route remembered per isolate").

/** An isolate remembers this many workspaces at most (~200 bytes each: about 2 MB), the oldest going first. */
export const MAX_ROUTES = 10_000;

interface Entry {
  route: WorkspaceRoute;
  expires: number;
}

export class RouteCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = MAX_ROUTES,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The route remembered under `key` while its lifetime lasts, or undefined. */
  get(key: string, now = Date.now()): WorkspaceRoute | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > now) return entry.route;
    this.#entries.delete(key);
    return undefined;
  }

  /**
   * Remembers a route the directory answered to a read sent at `readAt`: only a "ready" one (a moving
   * workspace is read each time, so its switch is seen at once), lasting from the read's start, not its
   * answer, and never over a newer version.
   */
  remember(key: string, route: WorkspaceRoute, readAt: number): void {
    if (route.state !== "ready") return;
    const known = this.#entries.get(key);
    if (known && known.route.version > route.version) return;
    this.#entries.delete(key);
    // Maps iterate in insertion order, so the first key is the one remembered longest ago.
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { route, expires: readAt + this.ttlMs });
  }

  /** Drops one route (a test that moves a workspace by hand) or every one (a write met a fence). */
  forget(key?: string): void {
    if (key === undefined) this.#entries.clear();
    else this.#entries.delete(key);
  }
}

let isolateRoutes: RouteCache | undefined;

/** This isolate's cache, made on first use with the lifetime `ttlMs` (ROUTE_CACHE_TTL_MS). */
export function routeCache(ttlMs: number): RouteCache {
  isolateRoutes ??= new RouteCache(ttlMs);
  return isolateRoutes;
}

/** Drops remembered routes of this isolate, if it has any: see RouteCache.forget. */
export function forgetRoutes(key?: string): void {
  isolateRoutes?.forget(key);
}
