import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { allDataDbs } from "../helpers/shards";
import { purgeOldChanges, SYNC_HORIZON_DAYS } from "../../src/todos/todo-sync";
import { TodoChangesSchema, TodoPageSchema } from "../../src/todos/todos.schemas";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { api, expectData, expectError } from "../helpers/http";
import { createTodo, update } from "../helpers/todos";

const changesSince = async (user: SignedUpUser, cursor: string, pageSize = 100) => {
  const res = await api(`/api/todos?updatedSince=${encodeURIComponent(cursor)}&pageSize=${pageSize}`, {
    token: user.token,
  });
  const data = expectData(res, 200, TodoChangesSchema);
  expect(res.headers.get("X-Todos-Cursor")).toBe(data.cursor);
  return data;
};

const remove = (user: SignedUpUser, id: number) =>
  api(`/api/todos/${id}/delete`, { method: "POST", token: user.token });

/** Every todo of the user as the paged list has it: id -> version. */
async function serverState(user: SignedUpUser): Promise<Map<number, number>> {
  const state = new Map<number, number>();
  for (let page = 1; ; page++) {
    const data = expectData(
      await api(`/api/todos?page=${page}&pageSize=100`, { token: user.token }),
      200,
      TodoPageSchema,
    );
    for (const todo of data.items) state.set(todo.id, todo.version);
    if (page >= data.totalPages) return state;
  }
}

describe("GET /api/todos?updatedSince (delta sync)", () => {
  it("answers each write once, in order, with tombstones; replaying the cursor answers nothing new", async () => {
    const alice = await signUp();
    const empty = await changesSince(alice, "0");
    expect(empty).toEqual({ changes: [], cursor: "0", hasMore: false });
    const a = await createTodo(alice, { title: "a" });
    const b = await createTodo(alice, { title: "b" });
    await update(alice, a.id, { completed: true });
    await remove(alice, b.id);
    const first = await changesSince(alice, "0");
    expect(first.changes.map(({ type, id, version }) => ({ type, id, version }))).toEqual([
      { type: "todo.created", id: a.id, version: 1 },
      { type: "todo.created", id: b.id, version: 1 },
      { type: "todo.updated", id: a.id, version: 2 },
      { type: "todo.deleted", id: b.id, version: 2 },
    ]);
    // The row rides on a todo's latest change only; a deletion has none.
    expect(first.changes.map((c) => c.todo?.version ?? null)).toEqual([null, null, 2, null]);
    expect(first.changes[2]!.todo).toMatchObject({ id: a.id, completed: true });
    expect(await changesSince(alice, first.cursor)).toEqual({
      changes: [],
      cursor: first.cursor,
      hasMore: false,
    });

    await update(alice, a.id, { title: "a2" });
    const next = await changesSince(alice, first.cursor);
    expect(next.changes).toEqual([
      expect.objectContaining({
        type: "todo.updated",
        id: a.id,
        version: 3,
        todo: expect.objectContaining({ title: "a2" }),
      }),
    ]);
  });

  it("pages with pageSize and hasMore; the paged list keeps its shape without updatedSince", async () => {
    const alice = await signUp();
    for (const title of ["1", "2", "3"]) await createTodo(alice, { title });
    const one = await changesSince(alice, "0", 2);
    expect(one).toMatchObject({ hasMore: true });
    expect(one.changes).toHaveLength(2);
    const two = await changesSince(alice, one.cursor, 2);
    expect(two).toMatchObject({ hasMore: false });
    expect(two.changes).toHaveLength(1);
    const page = await api("/api/todos", { token: alice.token });
    expect(Object.keys((page.body as any).data).toSorted()).toEqual([
      "items",
      "page",
      "pageSize",
      "total",
      "totalPages",
    ]);
    expect(page.headers.get("X-Todos-Cursor")).toBeNull();
  });

  it("sees only the user's own changes", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    await createTodo(alice, { title: "Alice's" });
    expect((await changesSince(bob, "0")).changes).toEqual([]);
  });

  it("C8: answers 400 for a cursor it did not make (garbage, a file-list cursor, another user's, one from the future)", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    await createTodo(bob);
    // Cursors are positions in one log: Alice's, past Bob's latest change, cannot be one of his.
    for (let i = 0; i < 3; i++) await createTodo(alice);
    const aliceCursor = (await changesSince(alice, "0")).cursor;
    for (const bad of ["x", "-1", "1", "00", "azEy", "czA", "czE0LjU", "c" + "A".repeat(70), aliceCursor]) {
      const res = await api(`/api/todos?updatedSince=${encodeURIComponent(bad)}`, { token: bob.token });
      expectError(res, 400, /cursor|updatedSince/i);
    }
  });

  it("C14: a cursor is opaque and its user's own: it tells no change count, and another user's is 400 even where it would fit", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    await createTodo(alice);
    await createTodo(bob);
    const bobCursor = (await changesSince(bob, "0")).cursor;
    // Alice's log now reaches past Bob's position: as a plain change id his cursor would be one of hers.
    for (let i = 0; i < 3; i++) await createTodo(alice);
    const res = await api(`/api/todos?updatedSince=${encodeURIComponent(bobCursor)}`, { token: alice.token });
    expectError(res, 400, "Invalid cursor: pass a cursor as given, or 0");
    expect(bobCursor).toMatch(/^[A-Za-z0-9_-]{48}$/);
    // Not a change id in base64, as cursors were.
    expect(atob(bobCursor.replaceAll("-", "+").replaceAll("_", "/"))).not.toMatch(/^[a-z]\d+$/);
    // Bob's own cursor still works for him.
    expect((await changesSince(bob, bobCursor)).changes).toEqual([]);
  });

  it("C8: answers 410 with the current cursor once changes after the cursor were purged (horizon, injected clock)", async () => {
    const alice = await signUp();
    const todo = await createTodo(alice);
    await update(alice, todo.id, { title: "later" });
    // The cron's purge with its clock past the horizon: this user's log (and this file's others) goes.
    const later = new Date(Date.now() + (SYNC_HORIZON_DAYS + 1) * 86_400_000);
    const purged = await Promise.all(allDataDbs().map((db) => purgeOldChanges(createDb(db), later)));
    expect(purged.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
    const res = await api("/api/todos?updatedSince=0", { token: alice.token });
    expectError(res, 410, /list your todos in full/);
    const cursor = res.headers.get("X-Todos-Cursor")!;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    // From that cursor on, syncing works again.
    await update(alice, todo.id, { title: "after the purge" });
    expect((await changesSince(alice, cursor)).changes.map((c) => c.version)).toEqual([3]);
  });

  it("C9: 200 concurrent writes while a client syncs until quiet: every change seen exactly once, final state equal", async () => {
    const alice = await signUp();
    const seeds = await Promise.all(
      Array.from({ length: 70 }, (_, i) => createTodo(alice, { title: `seed ${i}` })),
    );
    let cursor = "0";
    const seen: { type: string; id: number; version: number }[] = [];
    // Small pages, so the client syncs many times while the writes land.
    const syncOnce = async () => {
      const data = await changesSince(alice, cursor, 10);
      cursor = data.cursor;
      seen.push(...data.changes.map(({ type, id, version }) => ({ type, id, version })));
      return data.hasMore ? Infinity : data.changes.length;
    };
    const writes = [
      ...Array.from(
        { length: 100 },
        (_, i) => () =>
          api("/api/todos", { method: "POST", token: alice.token, json: { title: `new ${i}` } }),
      ),
      // Seeds 0-29 updated twice each (racing each other), seeds 30-69 deleted.
      ...seeds
        .slice(0, 30)
        .flatMap((t) => [
          () => update(alice, t.id, { title: "x" }),
          () => update(alice, t.id, { completed: true }),
        ]),
      ...seeds.slice(30).map((t) => () => remove(alice, t.id)),
    ];
    expect(writes).toHaveLength(200);
    const state = { writing: true };
    const done = Promise.all(writes.map((write) => write())).finally(() => {
      state.writing = false;
    });
    let syncs = 0;
    while (state.writing) {
      await syncOnce();
      syncs++;
    }
    const statuses = (await done).map((res) => res.status);
    expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    while ((await syncOnce()) > 0) syncs++;

    const keys = seen.map((c) => `${c.id}:${c.version}`);
    expect(new Set(keys).size).toBe(keys.length);
    // 70 seed creates + 200 writes, each seen once.
    expect(seen).toHaveLength(270);
    const client = new Map<number, number>();
    for (const change of seen) {
      if (change.type === "todo.deleted") client.delete(change.id);
      else client.set(change.id, Math.max(client.get(change.id) ?? 0, change.version));
    }
    expect(client).toEqual(await serverState(alice));
    for (const seed of seeds.slice(0, 30)) expect(client.get(seed.id)).toBe(3);
    console.log(`delta sync under 200 concurrent writes: ${syncs} syncs, ${seen.length} changes, none twice`);
  });
});
