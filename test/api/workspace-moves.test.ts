import type { z } from "@hono/zod-openapi";
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { userOwner } from "../../src/core/owner";
import { fence, liftFence } from "../../src/shards/fences";
import { shardBinding } from "../../src/db/shard-names";
import {
  ShardListSchema,
  WorkspaceListSchema,
  WorkspaceSchema,
} from "../../src/routes/admin-workspaces/admin-workspaces.schemas";
import { TodoChangesSchema } from "../../src/todos/todos.schemas";
import { signIn, signUp } from "../helpers/auth";
import { makeAdmin } from "../helpers/db";
import { api, expectData, expectError, type ApiResult } from "../helpers/http";
import { expectMoved, finishedMove, moverOf, rowCount, workspaceOf, workspaceRows } from "../helpers/shards";
import { createTodo } from "../helpers/todos";
import { createChat, getChat } from "../helpers/chats";
import { createLink, getFile, linkPath } from "../helpers/files";
import { bytes } from "../helpers/storage";
import { downloadPath, finish, putPart, startUpload, storeText } from "../helpers/uploads";

const otherShard = (shard: string) => (shard === "DB_SHARD_0" ? "DB_SHARD_1" : "DB_SHARD_0");

/** Every change after `cursor` (following `hasMore`), and the cursor to send next. */
async function changesSince(token: string, cursor: string) {
  const changes: z.infer<typeof TodoChangesSchema>["changes"] = [];
  for (let at = cursor; ;) {
    const page = expectData(
      await api(`/api/todos?updatedSince=${at}&pageSize=100`, { token }),
      200,
      TodoChangesSchema,
    );
    changes.push(...page.changes);
    if (!page.hasMore) return { changes, cursor: page.cursor };
    at = page.cursor;
  }
}

/** A write refused by a moving workspace's fence: 503 in the envelope, with a short Retry-After. */
function expectFenced(res: ApiResult) {
  expectError(res, 503, /moving/);
  expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers.get("Retry-After"))).toBeLessThanOrEqual(5);
}

describe("writes to a fenced workspace", () => {
  it("answers 503 with Retry-After, writes nothing, and writes again once the fence is lifted", async () => {
    const user = await signUp();
    const owner = userOwner(user.userId);
    const todo = await createTodo(user, { title: "before" });
    const workspace = await workspaceOf(owner);
    const db = shardBinding(env, workspace.shard);
    await fence(db, workspace.id, owner).run();
    try {
      expectFenced(await api("/api/todos", { method: "POST", token: user.token, json: { title: "during" } }));
      expectFenced(
        await api(`/api/todos/${todo.id}`, { method: "POST", token: user.token, json: { title: "x" } }),
      );
      expectFenced(await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: user.token }));
      expectFenced(await api("/api/notes", { method: "POST", token: user.token, json: { text: "n" } }));
      // Reads go on.
      expect((await api(`/api/todos/${todo.id}`, { token: user.token })).status).toBe(200);
    } finally {
      await liftFence(db, workspace.id).run();
    }
    const rows = await workspaceRows(workspace.shard, owner);
    expect(rows.todos_table!.map((t) => (t as { title: string }).title)).toEqual(["before"]);
    expect(
      (await api("/api/todos", { method: "POST", token: user.token, json: { title: "after" } })).status,
    ).toBe(201);
  });

  it("fences one workspace only: another user's writes on the same database go on", async () => {
    const [fenced, other] = [await signUp(), await signUp()];
    const workspace = await workspaceOf(userOwner(fenced.userId));
    const db = shardBinding(env, workspace.shard);
    await fence(db, workspace.id, userOwner(fenced.userId)).run();
    try {
      expect(
        (await api("/api/todos", { method: "POST", token: other.token, json: { title: "t" } })).status,
      ).toBe(201);
    } finally {
      await liftFence(db, workspace.id).run();
    }
  });
});

describe("a workspace moving while its owner writes", () => {
  it("loses and doubles no write: each one lands once, or is answered 503 and can be sent again", async () => {
    const user = await signUp();
    const owner = userOwner(user.userId);
    const seed = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createTodo(user, { title: `seed ${i}` })),
    );
    const workspace = await workspaceOf(owner);
    const target = otherShard(workspace.shard);
    const { cursor } = await changesSince(user.token, "0");
    const mover = moverOf(workspace.id);
    await mover.start({ workspaceId: workspace.id, owner, source: workspace.shard, target });

    const landed = new Map<number, string>();
    const statuses = new Set<number>();
    let n = 0;
    const deadline = Date.now() + 15_000;
    for (;;) {
      await runDurableObjectAlarm(mover);
      const plan = await mover.progress();
      if (Date.now() > deadline) throw new Error(`move stuck: ${JSON.stringify(plan)}`);
      const done = plan?.phase === "done" || plan?.phase === "failed";
      const title = `during ${n++}`;
      const res = await api<{ data: { id: number } }>("/api/todos", {
        method: "POST",
        token: user.token,
        json: { title },
      });
      statuses.add(res.status);
      if (res.status === 201) landed.set(res.body.data.id, title);
      else expectFenced(res);
      const edit = await api(`/api/todos/${seed[n % seed.length]!.id}`, {
        method: "POST",
        token: user.token,
        json: { description: title },
      });
      if (edit.status !== 200) expectFenced(edit);
      if (done) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expectMoved(await finishedMove(workspace.id));
    expect(statuses.has(201)).toBe(true);

    const home = (await workspaceOf(owner)).shard;
    expect(home).toBe(target);
    const todos = (await workspaceRows(home, owner)).todos_table as { id: number; title: string }[];
    const byId = new Map(todos.map((t) => [t.id, t.title]));
    expect(byId.size).toBe(todos.length);
    for (const t of seed) expect(byId.get(t.id)).toBe(t.title);
    for (const [id, title] of landed) expect(byId.get(id)).toBe(title);
    expect(todos).toHaveLength(seed.length + landed.size);

    // The cursor taken before the move still works: every write since, once, then nothing new.
    const late = await createTodo(user, { title: "after the move" });
    const since = await changesSince(user.token, cursor);
    const created = since.changes.filter((c) => c.type === "todo.created").map((c) => c.id);
    expect(created.toSorted()).toEqual([...landed.keys(), late.id].toSorted());
    expect(Math.min(...created)).toBeGreaterThan(Math.max(...seed.map((t) => t.id)));
    expect(late.id).toBeGreaterThan(Math.max(...landed.keys()));
    expect((await changesSince(user.token, since.cursor)).changes).toEqual([]);
  });
});

/** A fresh admin, signed in after the promotion (a role change ends older tokens). */
async function admin() {
  const user = await signUp();
  await makeAdmin(user.userId);
  return { ...user, token: (await signIn(user.username, user.password)).token };
}

describe("admin routes of workspaces and shards", () => {
  it("finds a workspace by owner, moves it, and shows the move to its end", async () => {
    const [boss, owner] = await Promise.all([admin(), signUp()]);
    await createTodo(owner, { title: "moved along" });
    const found = expectData(
      await api(`/api/admin/workspaces?userId=${owner.userId}`, { token: boss.token }),
      200,
      WorkspaceListSchema,
    );
    expect(found.items).toHaveLength(1);
    const workspace = found.items[0]!;
    expect(workspace).toMatchObject({ userId: owner.userId, orgId: null, state: "ready", move: null });
    const target = otherShard(workspace.shard);

    const started = expectData(
      await api(`/api/admin/workspaces/${workspace.id}/move`, {
        method: "POST",
        token: boss.token,
        json: { shard: target },
      }),
      202,
      WorkspaceSchema,
    );
    expect(started).toMatchObject({
      state: "moving",
      targetShard: target,
      move: { phase: "prepare", target },
    });
    expectError(
      await api(`/api/admin/workspaces/${workspace.id}/move`, {
        method: "POST",
        token: boss.token,
        json: { shard: target },
      }),
      409,
    );
    expectMoved(await finishedMove(workspace.id));

    const after = expectData(
      await api(`/api/admin/workspaces/${workspace.id}`, { token: boss.token }),
      200,
      WorkspaceSchema,
    );
    expect(after).toMatchObject({
      shard: target,
      state: "ready",
      targetShard: null,
      move: { phase: "done" },
    });
    expect(after.move!.fenceMs).toBeGreaterThanOrEqual(0);
    expect(after.move!.checks.find((c) => c.table === "todos_table")?.source.rows).toBe(1);
    // The owner's todos are read from the new shard.
    const page = await api("/api/todos", { token: owner.token });
    expect(JSON.stringify(page.body)).toContain("moved along");
    expectError(
      await api(`/api/admin/workspaces/${workspace.id}/move`, {
        method: "POST",
        token: boss.token,
        json: { shard: target },
      }),
      409,
    );

    const shards = expectData(await api("/api/admin/shards", { token: boss.token }), 200, ShardListSchema);
    expect(shards.items.map((s) => s.shard)).toEqual(
      expect.arrayContaining(["DB", "DB_SHARD_0", "DB_SHARD_1"]),
    );
    expect(shards.items.find((s) => s.shard === target)!.workspaces).toBeGreaterThanOrEqual(1);
  });

  it("finds a moved workspace's files, share links, uploads and chats where their keys, tokens and ids point", async () => {
    const [boss, owner] = await Promise.all([admin(), signUp()]);
    const file = await storeText(owner.token, "moved bytes", "m.txt");
    const link = await createLink(owner.token, file.key);
    const chat = await createChat(owner);
    const draft = await startUpload(owner.token, { fileName: "late.bin", size: 3 });
    expect((await putPart(owner.token, draft.uploadId, 1, bytes(3))).status).toBe(200);
    const workspace = await workspaceOf(userOwner(owner.userId));
    const target = otherShard(workspace.shard);
    const started = await api(`/api/admin/workspaces/${workspace.id}/move`, {
      method: "POST",
      token: boss.token,
      json: { shard: target },
    });
    expect(started.status).toBe(202);
    expectMoved(await finishedMove(workspace.id));

    const moved = await workspaceRows(target, userOwner(owner.userId));
    expect(moved.files_table).toHaveLength(1);
    expect(moved.file_links_table).toHaveLength(1);
    expect(moved.chats_table).toHaveLength(1);
    expect(moved.uploads_table).toHaveLength(1);
    expect(await rowCount(workspace.shard, userOwner(owner.userId))).toBe(0);
    expect((await getFile(owner.token, file.key)).status).toBe(200);
    const download = await api(downloadPath(file.key));
    expect([download.status, download.text]).toEqual([200, "moved bytes"]);
    const shared = await api(linkPath(link.url));
    expect([shared.status, shared.text]).toEqual([200, "moved bytes"]);
    expect((await getChat(owner, chat.id)).id).toBe(chat.id);
    const ticket = await api("/api/agents/tickets", {
      method: "POST",
      token: owner.token,
      json: { agent: "chat-agent", name: chat.id },
    });
    expect(ticket.status).toBe(201);
    expect((await finish(owner.token, draft.uploadId)).status).toBe(201);
    expect((await workspaceRows(target, userOwner(owner.userId))).files_table).toHaveLength(2);
  });

  it("refuses bad input and anyone but an admin", async () => {
    const [boss, user] = await Promise.all([admin(), signUp()]);
    const workspace = await workspaceOf(userOwner(user.userId));
    const move = (token: string, json: unknown, id: number | string = workspace.id) =>
      api(`/api/admin/workspaces/${id}/move`, { method: "POST", token, json });
    expectError(await move(boss.token, { shard: "DB_SHARD_9" }), 400, /Unknown shard/);
    expectError(await move(boss.token, { shard: "DB" }), 400, /Unknown shard/);
    expectError(await move(boss.token, { shard: "" }), 400);
    expectError(await move(boss.token, {}), 400);
    expectError(await move(boss.token, { shard: "DB_SHARD_0", extra: 1 }), 400);
    expectError(await move(boss.token, { shard: "DB_SHARD_0" }, "x"), 400);
    expectError(await move(boss.token, { shard: "DB_SHARD_0" }, 2 ** 50), 404);
    expectError(await move(boss.token, { shard: workspace.shard }), 409, /already on/);
    expectError(await api("/api/admin/workspaces", { token: boss.token }), 400);
    expectError(await api(`/api/admin/workspaces?userId=1&orgId=1`, { token: boss.token }), 400);
    expectError(await api(`/api/admin/workspaces/${2 ** 50}`, { token: boss.token }), 404);
    for (const [path, init] of [
      [`/api/admin/workspaces/${workspace.id}/move`, { method: "POST", json: { shard: "DB_SHARD_0" } }],
      [`/api/admin/workspaces/${workspace.id}`, {}],
      [`/api/admin/workspaces?userId=${user.userId}`, {}],
      ["/api/admin/shards", {}],
    ] as const) {
      expectError(await api(path, { ...init, token: user.token }), 403);
      expectError(await api(path, init), 401);
    }
    expect(await workspaceOf(userOwner(user.userId))).toMatchObject({
      shard: workspace.shard,
      state: "ready",
    });
  });
});
