// Deleting a todo takes it away at once; POST /api/todos/{id}/restore brings the same todo back.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { restorableSince } from "../../src/core/restore-window";
import { createDb } from "../../src/db/client";
import { allDataDbs } from "../helpers/shards";
import { purgeDeletedTodos } from "../../src/todos/todo-trash.queries";
import { DeletedTodoSchema, TodoChangesSchema, TodoPageSchema } from "../../src/todos/todos.schemas";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { awaitEvent, openFeed } from "../helpers/feed";
import { deleteFile } from "../helpers/files";
import { api, expectData, expectError, readResult } from "../helpers/http";
import { fetchWithEnv } from "../helpers/storage";
import { attachedKeys, createTodo, storedKey, todoOf } from "../helpers/todos";
import { storeText } from "../helpers/uploads";

const remove = async (user: SignedUpUser, id: number) =>
  expectData(
    await api(`/api/todos/${id}/delete`, { method: "POST", token: user.token }),
    200,
    DeletedTodoSchema,
  );

const restore = (user: SignedUpUser, id: number | string) =>
  api(`/api/todos/${id}/restore`, { method: "POST", token: user.token });

const changesSince = async (user: SignedUpUser, cursor: string) =>
  expectData(
    await api(`/api/todos?updatedSince=${encodeURIComponent(cursor)}`, { token: user.token }),
    200,
    TodoChangesSchema,
  );

/** Moves a deleted todo's delete back in time, past any restore window. */
const ageDelete = async (id: number) => {
  for (const db of allDataDbs()) {
    await db
      .prepare("UPDATE deleted_todos_table SET deletedAt = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(id)
      .run();
  }
};

describe("POST /api/todos/{id}/restore", () => {
  it("deletes at once, then restores the same todo with its attachments and a new version", async () => {
    const alice = await signUp();
    const key = await storedKey("plan.txt");
    const todo = await createTodo(alice, {
      title: "Pay rent",
      description: "Before the 3rd",
      completed: true,
      attachments: [{ fileKey: key }],
    });
    const deleted = await remove(alice, todo.id);
    expect(deleted.id).toBe(todo.id);
    // A day by default (RESTORE_WINDOW_SECONDS).
    const window = Date.parse(deleted.restorableUntil) - Date.now();
    expect(window).toBeGreaterThan(86_400_000 - 60_000);
    expect(window).toBeLessThanOrEqual(86_400_000);

    // Gone for every reader, as the spec says: 404 to GET, out of the list and its total.
    expectError(await api(`/api/todos/${todo.id}`, { token: alice.token }), 404, "Todo not found");
    const page = expectData(await api("/api/todos", { token: alice.token }), 200, TodoPageSchema);
    expect(page.items.map((item) => item.id)).not.toContain(todo.id);
    expect(page.total).toBe(0);

    const res = await restore(alice, todo.id);
    const back = todoOf(res);
    expect(back).toMatchObject({
      id: todo.id,
      title: "Pay rent",
      description: "Before the 3rd",
      completed: true,
      completedAt: todo.completedAt,
      createdAt: todo.createdAt,
      // Above the tombstone's version (2), so a client ordering by version takes it.
      version: 3,
    });
    expect(attachedKeys(back)).toEqual([key]);
    expect(res.headers.get("ETag")).toBe(`"todo-${todo.id}-v3"`);
    expect(todoOf(await api(`/api/todos/${todo.id}`, { token: alice.token }))).toEqual(back);
    const after = expectData(await api("/api/todos", { token: alice.token }), 200, TodoPageSchema);
    expect(after.total).toBe(1);
  });

  it("a client that synced the delete sees the todo come back as todo.created, with its row", async () => {
    const alice = await signUp();
    const todo = await createTodo(alice);
    const start = await changesSince(alice, "0");
    await remove(alice, todo.id);
    const afterDelete = await changesSince(alice, start.cursor);
    expect(afterDelete.changes).toEqual([{ type: "todo.deleted", id: todo.id, version: 2, todo: null }]);
    todoOf(await restore(alice, todo.id));
    const afterRestore = await changesSince(alice, afterDelete.cursor);
    expect(afterRestore.changes).toHaveLength(1);
    expect(afterRestore.changes[0]).toMatchObject({
      type: "todo.created",
      id: todo.id,
      version: 3,
      todo: { id: todo.id, version: 3, title: todo.title },
    });
  });

  it("the live feed hears the delete and the restore", async () => {
    const alice = await signUp();
    const todo = await createTodo(alice);
    const feed = await openFeed(alice);
    let since = performance.now();
    await remove(alice, todo.id);
    expect(await awaitEvent(feed, { type: "todo.deleted", id: todo.id, version: 2 }, since)).toBeLessThan(
      5_000,
    );
    since = performance.now();
    todoOf(await restore(alice, todo.id));
    expect(await awaitEvent(feed, { type: "todo.created", id: todo.id, version: 3 }, since)).toBeLessThan(
      5_000,
    );
    feed.close();
  });

  it("a second restore answers the todo as it is and writes nothing", async () => {
    const alice = await signUp();
    const todo = await createTodo(alice);
    await remove(alice, todo.id);
    const first = todoOf(await restore(alice, todo.id));
    const start = await changesSince(alice, "0");
    expect(todoOf(await restore(alice, todo.id))).toEqual(first);
    expect((await changesSince(alice, start.cursor)).changes).toEqual([]);
  });

  it("two restores at once bring it back once", async () => {
    const alice = await signUp();
    const todo = await createTodo(alice);
    await remove(alice, todo.id);
    const results = await Promise.all([restore(alice, todo.id), restore(alice, todo.id)]);
    expect(results.map((res) => todoOf(res).version)).toEqual([3, 3]);
    const changes = (await changesSince(alice, "0")).changes.map((change) => change.type);
    expect(changes).toEqual(["todo.created", "todo.deleted", "todo.created"]);
  });

  it("can delete and restore the same todo again", async () => {
    const alice = await signUp();
    const todo = await createTodo(alice);
    await remove(alice, todo.id);
    todoOf(await restore(alice, todo.id));
    await remove(alice, todo.id);
    expect(todoOf(await restore(alice, todo.id)).version).toBe(5);
  });

  it("leaves out attachments whose file was deleted meanwhile", async () => {
    const alice = await signUp();
    const kept = await storedKey("kept.txt");
    const { key: gone } = await storeText(alice.token, "going", "gone.txt");
    const todo = await createTodo(alice, { attachments: [{ fileKey: kept }, { fileKey: gone }] });
    await remove(alice, todo.id);
    // The todo no longer holds the file, so deleting it is no conflict.
    expect((await deleteFile(alice.token, gone)).status).toBe(200);
    expect(attachedKeys(todoOf(await restore(alice, todo.id)))).toEqual([kept]);
  });

  it("410 past the restore window, then 404 once the cron has forgotten it", async () => {
    const alice = await signUp();
    const todo = await createTodo(alice);
    await remove(alice, todo.id);
    await ageDelete(todo.id);
    expectError(
      await restore(alice, todo.id),
      410,
      /^Todo can no longer be restored: it was deleted more than 86400 s ago$/,
    );
    expectError(await api(`/api/todos/${todo.id}`, { token: alice.token }), 404);
    for (const db of allDataDbs()) await purgeDeletedTodos(createDb(db), restorableSince(env));
    expectError(await restore(alice, todo.id), 404, "Todo not found");
  });

  it("RESTORE_WINDOW_SECONDS sets the window", async () => {
    const alice = await signUp();
    const todo = await createTodo(alice);
    const res = await fetchWithEnv(
      `/api/todos/${todo.id}/delete`,
      { method: "POST", headers: { Authorization: `Bearer ${alice.token}` } },
      { RESTORE_WINDOW_SECONDS: "60" },
    );
    const { restorableUntil } = expectData(await readResult(res), 200, DeletedTodoSchema);
    expect(Date.parse(restorableUntil) - Date.now()).toBeLessThanOrEqual(60_000);
    expect(Date.parse(restorableUntil) - Date.now()).toBeGreaterThan(0);
  });

  it("another user's deleted todo is 404, and stays restorable by its owner", async () => {
    const [alice, mallory] = await Promise.all([signUp(), signUp()]);
    const todo = await createTodo(alice);
    await remove(alice, todo.id);
    expectError(await restore(mallory, todo.id), 404, "Todo not found");
    todoOf(await restore(alice, todo.id));
    // And a live todo of someone else is no answer either.
    expectError(await restore(mallory, todo.id), 404, "Todo not found");
  });

  it("unknown ids are 404; bad ids are 400; no token is 401", async () => {
    const alice = await signUp();
    expectError(await restore(alice, 999_999_999), 404, "Todo not found");
    for (const id of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      expectError(await restore(alice, id), 400);
    }
    expectError(await api("/api/todos/1/restore", { method: "POST" }), 401);
  });
});
