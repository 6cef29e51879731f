import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { routeCacheTtlMs, routeSettleMs } from "../../src/core/config";
import { ownerKey, userOwner } from "../../src/core/owner";
import { routeCache } from "../../src/db/route-cache";
import { shardBinding } from "../../src/db/shard-names";
import { fence, liftFence } from "../../src/shards/fences";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { api, expectError } from "../helpers/http";
import { expectMoved, moverOf, pointAt, rowCount, workspaceOf } from "../helpers/shards";
import { createTodo } from "../helpers/todos";

const otherShard = (shard: string) => (shard === "DB_SHARD_0" ? "DB_SHARD_1" : "DB_SHARD_0");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The titles of the user's todos as GET /api/todos answers them. */
async function titles(user: SignedUpUser): Promise<string[]> {
  const res = await api<{ data: { items: { title: string }[] } }>("/api/todos", { token: user.token });
  expect(res.status).toBe(200);
  return res.body.data.items.map((todo) => todo.title).toSorted();
}

// When this file runs first, its first request loads and transforms the whole worker (20 s and more on a
// loaded machine): paid here, not by a test's own timeout.
beforeAll(() => signUp(), 120_000);

describe("a workspace's route, remembered by the isolate", () => {
  it("is read from the directory again once ROUTE_CACHE_TTL_MS has passed", async () => {
    const user = await signUp();
    const owner = userOwner(user.userId);
    // No later than the route's first read: it lives at least until readAt + its lifetime.
    const readAt = Date.now();
    await createTodo(user, { title: "on the source" });
    const workspace = await workspaceOf(owner);
    expect(await titles(user)).toEqual(["on the source"]);
    // The directory alone changes (no move, no fence): the remembered route goes on for its lifetime.
    await pointAt({ userId: user.userId }, otherShard(workspace.shard));
    const early = await titles(user);
    if (Date.now() - readAt < routeCacheTtlMs(env)) expect(early).toEqual(["on the source"]);
    await sleep(routeCacheTtlMs(env));
    expect(await titles(user)).toEqual([]);
  });

  it("moved with the route remembered: reads after the switch come from the target, the source's rows stay past every route's lifetime", async () => {
    const user = await signUp();
    const owner = userOwner(user.userId);
    const todo = await createTodo(user, { title: "moved" });
    const workspace = await workspaceOf(owner);
    const target = otherShard(workspace.shard);
    expect(await titles(user)).toEqual(["moved"]);
    const mover = moverOf(workspace.id);
    await mover.start({ workspaceId: workspace.id, owner, source: workspace.shard, target });

    const deadline = Date.now() + 10_000;
    let readAfterSwitch = false;
    for (;;) {
      await runDurableObjectAlarm(mover);
      const plan = (await mover.progress())!;
      if (plan.switchedAt) {
        const sourceRows = await rowCount(workspace.shard, owner);
        // The cleanup deletes nothing until routes read before the switch, and requests holding them, are over.
        if (sourceRows === 0) {
          expect(Date.now() - Date.parse(plan.switchedAt)).toBeGreaterThanOrEqual(routeSettleMs(env));
        }
        if (!readAfterSwitch) {
          // A change only the target holds: the first read after the switch must see it.
          await shardBinding(env, target)
            .prepare("UPDATE todos_table SET title = 'on the target' WHERE id = ?1")
            .bind(todo.id)
            .run();
          expect(await titles(user)).toEqual(["on the target"]);
          readAfterSwitch = true;
        }
      }
      if (plan.phase === "done" || plan.phase === "failed") {
        expectMoved(plan);
        // The fence went up only once every route remembered before the claim had expired.
        expect(Date.parse(plan.fencedAt!) - Date.parse(plan.startedAt)).toBeGreaterThanOrEqual(
          routeSettleMs(env),
        );
        break;
      }
      if (Date.now() > deadline) throw new Error(`move stuck: ${JSON.stringify(plan)}`);
      await sleep(10);
    }
    expect(readAfterSwitch).toBe(true);
    expect(await rowCount(workspace.shard, owner)).toBe(0);
    expect(await titles(user)).toEqual(["on the target"]);
  });

  it("a write through a route remembered past its switch is not lost: 503, and its retry lands on the new shard", async () => {
    const user = await signUp();
    const owner = userOwner(user.userId);
    await createTodo(user, { title: "before" });
    const workspace = await workspaceOf(owner);
    const source = shardBinding(env, workspace.shard);
    const target = otherShard(workspace.shard);
    // What a move's waits prevent, forced: the switch while this isolate still remembers the source (as if
    // read just now: a slow machine must not let it expire before the write).
    await fence(source, workspace.id, owner).run();
    try {
      await pointAt({ userId: user.userId }, target);
      const { id, shard, state, targetShard, version } = workspace;
      routeCache(routeCacheTtlMs(env)).remember(
        ownerKey(owner),
        { id, shard, state: state as "ready", targetShard, version },
        Date.now() + 60_000,
      );
      const stale = await api("/api/todos", {
        method: "POST",
        token: user.token,
        json: { title: "retried" },
      });
      expectError(stale, 503, /moving/);
      expect(stale.headers.get("Retry-After")).toBe("1");
      const retry = await api("/api/todos", {
        method: "POST",
        token: user.token,
        json: { title: "retried" },
      });
      expect(retry.status).toBe(201);
      expect(await titles(user)).toEqual(["retried"]);
      const kept = await source
        .prepare("SELECT title FROM todos_table WHERE userId = ?1")
        .bind(user.userId)
        .all<{ title: string }>();
      expect(kept.results.map((row) => row.title)).toEqual(["before"]);
    } finally {
      await liftFence(source, workspace.id).run();
    }
  });
});
