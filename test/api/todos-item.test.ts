import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { injected, withFaults } from "../helpers/faults";
import { onShardOf } from "../helpers/shards";
import { api, expectError } from "../helpers/http";
import { countObjects, fetchWithEnv } from "../helpers/storage";
import {
  attachedKeys,
  countRows,
  createTodo,
  duplicatingLastStatement,
  snapshot,
  storedKey,
  todoOf,
  update,
  updated,
} from "../helpers/todos";

let alice: SignedUpUser;
let bob: SignedUpUser;

beforeAll(async () => {
  [alice, bob] = await Promise.all([signUp(), signUp()]);
});

describe("GET, update and delete one todo", () => {
  it("reads a todo with its attachments", async () => {
    const key = await storedKey("a.txt");
    const todo = await createTodo(alice, { attachments: [{ fileKey: key }] });
    const res = await api(`/api/todos/${todo.id}`, { token: alice.token });
    expect(todoOf(res)).toEqual(todo);
  });

  it("A1: answers 404 Todo not found for another user's todo and leaves it byte-identical", async () => {
    const key = await storedKey();
    const todo = await createTodo(alice, { attachments: [{ fileKey: key }] });
    const before = await snapshot(todo.id);
    expectError(await api(`/api/todos/${todo.id}`, { token: bob.token }), 404, "Todo not found");
    expectError(await update(bob, todo.id, { title: "pwned", attachments: [] }), 404, "Todo not found");
    expectError(await update(bob, todo.id, { attachments: [{ fileKey: key }] }), 404, "Todo not found");
    expectError(
      await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: bob.token }),
      404,
      "Todo not found",
    );
    expect(await snapshot(todo.id)).toEqual(before);
  });

  it("updates fields and manages completedAt", async () => {
    const todo = await createTodo(alice);
    const done = await updated(alice, todo.id, {
      completed: true,
      title: "new",
      scheduleAt: "2027-01-01T00:00:00Z",
    });
    expect(done).toMatchObject({
      title: "new",
      completed: true,
      scheduleAt: "2027-01-01T00:00:00.000Z",
    });
    const completedAt = done.completedAt;
    expect(completedAt).toMatch(/^\d{4}-/);
    const again = await updated(alice, todo.id, { completed: true });
    expect(again.completedAt).toBe(completedAt);
    const reopened = await updated(alice, todo.id, { completed: false, scheduleAt: null });
    expect(reopened).toMatchObject({ completed: false, completedAt: null, scheduleAt: null });
    expect(reopened.updatedAt >= todo.updatedAt).toBe(true);
  });

  it("T2: omitted attachments stay, [] clears them, a set replaces them, all-missing keys clear them", async () => {
    const [k1, k2, k3] = await Promise.all([storedKey("1.txt"), storedKey("2.txt"), storedKey("3.txt")]);
    const todo = await createTodo(alice, { attachments: [{ fileKey: k1 }, { fileKey: k2 }] });

    expect(attachedKeys(await updated(alice, todo.id, { title: "renamed" }))).toEqual([k1, k2].toSorted());
    expect(
      attachedKeys(await updated(alice, todo.id, { attachments: [{ fileKey: k2 }, { fileKey: k3 }] })),
    ).toEqual([k2, k3].toSorted());
    expect((await updated(alice, todo.id, { attachments: [] })).attachments).toEqual([]);
    await update(alice, todo.id, { attachments: [{ fileKey: k1 }] });
    const missing = await updated(alice, todo.id, {
      attachments: [{ fileKey: `${crypto.randomUUID()}-gone` }],
    });
    expect(missing.attachments).toEqual([]);
    for (const key of [k1, k2, k3]) expect(await env.R2_BUCKET.head(key)).not.toBeNull();
  });

  it("T3: a batch that fails for real (UNIQUE violation) leaves the todo and old attachments intact", async () => {
    const [k1, k2] = await Promise.all([storedKey(), storedKey()]);
    const todo = await createTodo(alice, { attachments: [{ fileKey: k1 }] });
    const before = await snapshot(todo.id);
    const res = await fetchWithEnv(
      `/api/todos/${todo.id}`,
      {
        method: "POST",
        token: alice.token,
        body: JSON.stringify({ title: "changed", completed: true, attachments: [{ fileKey: k2 }] }),
        headers: { "Content-Type": "application/json" },
      },
      await onShardOf({ userId: alice.userId }, duplicatingLastStatement),
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ success: false, error: { message: "Internal server error" } });
    expect(await snapshot(todo.id)).toEqual(before);
  });

  it("T3: a batch that throws (wrapped D1) leaves the todo and old attachments intact", async () => {
    const key = await storedKey();
    const todo = await createTodo(alice, { attachments: [{ fileKey: key }] });
    const before = await snapshot(todo.id);
    const failing = await onShardOf({ userId: alice.userId }, (shard) =>
      withFaults(shard, { batch: () => injected("D1_ERROR batch") }),
    );
    const res = await fetchWithEnv(
      `/api/todos/${todo.id}`,
      {
        method: "POST",
        token: alice.token,
        body: JSON.stringify({ title: "changed", attachments: [] }),
        headers: { "Content-Type": "application/json" },
      },
      failing,
    );
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("injected");
    expect(await snapshot(todo.id)).toEqual(before);
  });

  it("T3: replaces 20 attachments at once (chunked under D1's 100 parameters)", async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, (_, i) => storedKey(`r${i}`)));
    const todo = await createTodo(alice, { attachments: [{ fileKey: keys[0] }] });
    const res = await update(alice, todo.id, { attachments: keys.map((fileKey) => ({ fileKey })) });
    expect(todoOf(res).attachments).toHaveLength(20);
    expect((await snapshot(todo.id)).attachments).toHaveLength(20);
  });

  it("T4: deleting a todo cascades its attachment rows; every object still answers HEAD", async () => {
    const keys = await Promise.all([storedKey(), storedKey()]);
    const todo = await createTodo(alice, { attachments: keys.map((fileKey) => ({ fileKey })) });
    const objects = await countObjects();
    const res = await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { id: todo.id, restorableUntil: expect.stringMatching(/Z$/) },
    });
    expect(await snapshot(todo.id)).toEqual({ todo: null, attachments: [] });
    for (const key of keys) expect(await env.R2_BUCKET.head(key)).not.toBeNull();
    expect(await countObjects()).toBe(objects);
    expectError(await api(`/api/todos/${todo.id}`, { token: alice.token }), 404, "Todo not found");
    expectError(await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: alice.token }), 404);
  });

  it("T5: 10 parallel updates end with exactly one submitted set", async () => {
    const keys = await Promise.all(Array.from({ length: 30 }, (_, i) => storedKey(`p${i}`)));
    const sets = Array.from({ length: 10 }, (_, i) => keys.slice(i * 3, i * 3 + 3));
    const todo = await createTodo(alice);
    const results = await Promise.all(
      sets.map((set) => update(alice, todo.id, { attachments: set.map((fileKey) => ({ fileKey })) })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const final = (await snapshot(todo.id)).attachments.map((row) => row.fileKey as string).toSorted();
    expect(sets.map((set) => set.toSorted())).toContainEqual(final);
  });

  it("T6: an R2 failure during the lookup answers 503 and changes nothing in D1", async () => {
    const key = await storedKey();
    const todo = await createTodo(alice, { attachments: [{ fileKey: key }] });
    const before = await snapshot(todo.id);
    const todosBefore = await countRows("todos_table");
    let calls = 0;
    const flaky = withFaults(env.R2_BUCKET, {
      head: (k: string) => (calls++ === 0 ? injected("R2 head") : env.R2_BUCKET.head(k)),
    });
    const post = (path: string, json: unknown) =>
      fetchWithEnv(
        path,
        {
          method: "POST",
          token: alice.token,
          body: JSON.stringify(json),
          headers: { "Content-Type": "application/json" },
        },
        { R2_BUCKET: flaky },
      );
    const res = await post(`/api/todos/${todo.id}`, { title: "changed", attachments: [{ fileKey: key }] });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      success: false,
      error: { message: "File storage is not answering, try again" },
    });
    expect(await snapshot(todo.id)).toEqual(before);

    calls = 0;
    const created = await post("/api/todos", { title: "new", attachments: [{ fileKey: key }] });
    expect(created.status).toBe(503);
    expect(await countRows("todos_table")).toBe(todosBefore);
  });
});
