import { describe, expect, it } from "vitest";
import { RouteCache } from "../../src/db/route-cache";
import type { WorkspaceRoute } from "../../src/db/workspaces.queries";

const route = (version: number, state: WorkspaceRoute["state"] = "ready"): WorkspaceRoute => ({
  id: 1,
  shard: "DB_SHARD_0",
  state,
  targetShard: state === "moving" ? "DB_SHARD_1" : null,
  version,
});

describe("the isolate's route cache", () => {
  it("keeps a ready route for its lifetime from the read's start, then forgets it", () => {
    const cache = new RouteCache(1_000);
    cache.remember("user-1", route(3), 10_000);
    expect(cache.get("user-1", 10_999)).toEqual(route(3));
    expect(cache.get("user-1", 11_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("never remembers a moving workspace, nor an older version over a newer one", () => {
    const cache = new RouteCache(1_000);
    cache.remember("user-1", route(4, "moving"), 0);
    expect(cache.get("user-1", 1)).toBeUndefined();
    cache.remember("user-1", route(6), 0);
    cache.remember("user-1", route(2), 5);
    expect(cache.get("user-1", 6)?.version).toBe(6);
  });

  it("holds at most maxEntries routes, dropping the one remembered longest ago", () => {
    const cache = new RouteCache(60_000, 3);
    for (const n of [1, 2, 3, 4, 5]) cache.remember(`user-${n}`, route(n), 0);
    expect(cache.size).toBe(3);
    expect(["user-1", "user-2"].map((key) => cache.get(key, 1))).toEqual([undefined, undefined]);
    expect(["user-3", "user-4", "user-5"].map((key) => cache.get(key, 1)?.version)).toEqual([3, 4, 5]);
    // Remembered again, a route counts as the newest.
    cache.remember("user-3", route(3), 1);
    cache.remember("user-6", route(6), 1);
    expect(cache.get("user-3", 2)?.version).toBe(3);
    expect(cache.get("user-4", 2)).toBeUndefined();
  });
});
