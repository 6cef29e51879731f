import { beforeAll, describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { api, expectData, expectError, request, BAD_PAGING } from "../helpers/http";
import { countRows, createTodo, snapshot, todoOf, update } from "../helpers/todos";
import { TodoPageSchema, TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";

let alice: SignedUpUser;

beforeAll(async () => {
  alice = await signUp();
});

describe("V1-V10: input validation", () => {
  it("V1/V2: answers 400 for malformed JSON and for JSON without a JSON Content-Type", async () => {
    for (const body of ["{", '{"title":"x",}']) {
      const res = await api("/api/todos", {
        method: "POST",
        token: alice.token,
        body,
        headers: { "Content-Type": "application/json" },
      });
      expectError(res, 400);
    }
    expectError(
      await api("/api/todos", {
        method: "POST",
        token: alice.token,
        body: '{"title":"x"}',
        headers: { "Content-Type": "text/plain" },
      }),
      400,
    );
    expectError(await api("/api/todos", { method: "POST", token: alice.token, body: '{"title":"x"}' }), 400);
  });

  it("keeps scheduleAt within the years 0000 to 9999 once converted to UTC", async () => {
    for (const scheduleAt of ["9999-12-31T23:00:00-05:00", "0000-01-01T00:30:00+01:00"]) {
      const res = await api("/api/todos", {
        method: "POST",
        token: alice.token,
        json: { title: "x", scheduleAt },
      });
      expect(expectError(res, 400).issues?.[0]?.path, scheduleAt).toEqual(["scheduleAt"]);
    }
    for (const [sent, stored] of [
      ["9999-12-31T23:59:59Z", "9999-12-31T23:59:59.000Z"],
      ["0000-01-01T01:00:00+01:00", "0000-01-01T00:00:00.000Z"],
    ]) {
      const res = await api("/api/todos", {
        method: "POST",
        token: alice.token,
        json: { title: "x", scheduleAt: sent },
      });
      expect(expectData(res, 201, TodoWithAttachmentsSchema).scheduleAt).toBe(stored);
    }
  });

  it("V3/V4: answers 400 with issues for wrong types, missing fields and extra fields", async () => {
    const bodies: unknown[] = [
      { title: 123 },
      { title: "x", completed: "yes" },
      { title: "x", description: null },
      { title: "x", scheduleAt: "tomorrow" },
      { title: "x", attachments: "k" },
      { title: "x", attachments: [{}] },
      { title: "x", attachments: [{ fileKey: "" }] },
      { title: "x", attachments: [{ fileKey: "é".repeat(513) }] },
      {},
      { title: "   " },
      { description: "no title" },
      JSON.parse('{"title":"x","__proto__":{"role":"admin"}}'),
      [],
      "x",
      null,
    ];
    for (const json of bodies) {
      const error = expectError(await api("/api/todos", { method: "POST", token: alice.token, json }), 400);
      expect(error.issues?.length, JSON.stringify(json)).toBeGreaterThan(0);
    }
    const todo = await createTodo(alice);
    for (const json of [
      { title: 1 },
      { completed: 1 },
      { attachments: [{ fileKey: "k", extra: 1 }] },
      { userId: 1 },
    ]) {
      expectError(await update(alice, todo.id, json), 400);
    }
    expect((await snapshot(todo.id)).todo).toMatchObject({ title: "t", completed: 0 });
  });

  it("V5: answers 400 for a 1 MB title and 413 for a 10 MB body, writing nothing", async () => {
    const before = await countRows("todos_table");
    expectError(
      await api("/api/todos", { method: "POST", token: alice.token, json: { title: "x".repeat(1_000_000) } }),
      400,
    );
    expectError(
      await api("/api/todos", {
        method: "POST",
        token: alice.token,
        json: { title: "x", description: "y".repeat(10_000_000) },
      }),
      413,
    );
    expect(await countRows("todos_table")).toBe(before);
  });

  it("V6: answers 400 for malformed ids and 404 for unknown ones, never 5xx", async () => {
    for (const id of ["abc", "-1", "0", "1.5", "1e3", "9007199254740993", "18446744073709551616", "%20"]) {
      expectError(await api(`/api/todos/${id}`, { token: alice.token }), 400);
      expectError(await update(alice, id as unknown as number, { title: "x" }), 400);
      expectError(await api(`/api/todos/${id}/delete`, { method: "POST", token: alice.token }), 400);
      expectError(await api(`/api/users/${id}/todos`, { token: alice.token }), 400);
    }
    expectError(await api("/api/todos/999999999", { token: alice.token }), 404, "Todo not found");
  });

  it("V7: answers 400 for bad paging values and 200 with no items far past the end", async () => {
    for (const query of [...BAD_PAGING, "completed=yes"]) {
      expectError(await api(`/api/todos?${query}`, { token: alice.token }), 400);
    }
    const res = await api("/api/todos?page=1000000000", { token: alice.token });
    const page = expectData(res, 200, TodoPageSchema);
    expect(page.items).toEqual([]);
    expect(page.total).toBeGreaterThan(0);
  });

  it("V8: answers 400 for NUL and lone surrogates; tabs, newlines and emoji round-trip", async () => {
    for (const title of ["a\u0000b", "a\ud800b", "\udc00"]) {
      const res = await api("/api/todos", {
        method: "POST",
        token: alice.token,
        body: `{"title":${JSON.stringify(title)}}`,
        headers: { "Content-Type": "application/json" },
      });
      expectError(res, 400);
    }
    const title = "tab\tline\nemoji 😀 ü";
    const todo = await createTodo(alice, { title, description: title });
    expect(todoOf(await api(`/api/todos/${todo.id}`, { token: alice.token }))).toMatchObject({
      title,
      description: title,
    });
  });

  it("V9: answers 404 in the envelope for unknown routes and wrong methods", async () => {
    const todo = await createTodo(alice);
    expectError(await api("/api/todos/1/nope", { token: alice.token }), 404);
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      expectError(await api(`/api/todos/${todo.id}`, { method, token: alice.token }), 404);
    }
    const head = await request(`/api/todos/${todo.id}`, { method: "HEAD", token: alice.token });
    expect(head.status).toBe(200);
  });

  it("V10: stores SQL-looking text literally", async () => {
    const title = "' OR 1=1--";
    const before = await countRows("todos_table");
    const todo = await createTodo(alice, { title, description: "'); DROP TABLE todos_table;--" });
    const read = await api(`/api/todos/${todo.id}`, { token: alice.token });
    expect(todoOf(read)).toMatchObject({ title, description: "'); DROP TABLE todos_table;--" });
    // Exactly one row more: the text neither dropped the table nor matched other rows.
    expect(await countRows("todos_table")).toBe(before + 1);
  });
});
