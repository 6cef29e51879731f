import type { z } from "@hono/zod-openapi";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { makeAdmin } from "../helpers/db";
import { injected, withFaults } from "../helpers/faults";
import { api, expectError, request } from "../helpers/http";
import { countObjects, fetchWithEnv } from "../helpers/storage";
import type { TodoWithAttachmentsSchema } from "../../src/routes/todos/todos.schemas";

type Todo = z.infer<typeof TodoWithAttachmentsSchema>;

let alice: SignedUpUser;
let bob: SignedUpUser;

beforeAll(async () => {
  [alice, bob] = await Promise.all([signUp(), signUp()]);
});

async function createTodo(user: SignedUpUser, body: Record<string, unknown> = {}): Promise<Todo> {
  const res = await api("/api/todos", { method: "POST", token: user.token, json: { title: "t", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** Uploads a small object directly to R2 under a fresh key of the upload format. */
async function storedKey(name = "f.txt", directory?: string): Promise<string> {
  const key = `${directory ? `${directory}/` : ""}${crypto.randomUUID()}-${name}`;
  await env.R2_BUCKET.put(key, `content of ${name}`);
  return key;
}

/** The todo row and its attachment rows exactly as stored. */
async function snapshot(todoId: number) {
  const todo = await env.DB.prepare("SELECT * FROM todos_table WHERE id = ?").bind(todoId).first();
  const rows = await env.DB.prepare("SELECT * FROM todo_attachments_table WHERE todoId = ? ORDER BY id")
    .bind(todoId)
    .all();
  return { todo, attachments: rows.results };
}

async function countRows(table: "todos_table" | "todo_attachments_table"): Promise<number> {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}

const attachedKeys = (t: Todo) => t.attachments!.map((a) => a.fileKey).toSorted();

const update = (user: SignedUpUser, id: number, json: unknown) =>
  api(`/api/todos/${id}`, { method: "POST", token: user.token, json });

describe("POST /api/todos", () => {
  it("creates a todo owned by the token's user and answers 201 with todoVo", async () => {
    const res = await api("/api/todos", {
      method: "POST",
      token: alice.token,
      json: { title: "Write report", description: "Q3", scheduleAt: "2026-12-01T10:00:00+01:00" },
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      userId: alice.userId,
      title: "Write report",
      description: "Q3",
      completed: false,
      completedAt: null,
      scheduleAt: "2026-12-01T09:00:00.000Z",
      attachments: [],
    });
    expect(res.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("T1: keeps existing keys as attachments with fields from R2 and drops missing ones", async () => {
    const key = await storedKey("report.pdf", "docs/2026");
    const object = await env.R2_BUCKET.head(key);
    const todo = await createTodo(alice, {
      attachments: [{ fileKey: key }, { fileKey: `${crypto.randomUUID()}-missing.txt` }, { fileKey: key }],
    });
    expect(todo.attachments).toHaveLength(1);
    expect(todo.attachments![0]).toMatchObject({
      todoId: todo.id,
      fileKey: key,
      filePath: key,
      fileSize: object!.size,
      fileHash: object!.etag,
      fileName: "report.pdf",
    });
  });

  it("sets completedAt when created completed", async () => {
    const todo = await createTodo(alice, { completed: true });
    expect(todo.completedAt).toMatch(/^\d{4}-/);
  });

  it("A8: may attach a key another user uploaded (the key is the capability)", async () => {
    const upload = new FormData();
    upload.append("file", new Blob(["bob's"]), "bob.txt");
    const uploaded = await api("/api/upload", { method: "POST", token: bob.token, body: upload });
    const todo = await createTodo(alice, { attachments: [{ fileKey: uploaded.body.data.key }] });
    expect(todo.attachments).toHaveLength(1);
  });

  it("A7: rejects userId in the body and extra attachment fields with 400, writing nothing", async () => {
    const before = await countRows("todos_table");
    const key = await storedKey();
    const bodies = [
      { title: "x", userId: bob.userId },
      { title: "x", attachments: [{ fileKey: key, fileSize: 1 }] },
      { title: "x", attachments: [{ fileKey: key, fileName: "evil" }] },
      { title: "x", id: 1 },
      { title: "x", completedAt: "2026-01-01T00:00:00Z" },
    ];
    for (const json of bodies) {
      expectError(await api("/api/todos", { method: "POST", token: alice.token, json }), 400);
    }
    expect(await countRows("todos_table")).toBe(before);
  });

  it("T7: rejects more than 20 attachments with 400 before writing anything", async () => {
    const before = { todos: await countRows("todos_table"), rows: await countRows("todo_attachments_table") };
    const attachments = Array.from({ length: 21 }, (_, i) => ({ fileKey: `k${i}` }));
    const res = await api("/api/todos", {
      method: "POST",
      token: alice.token,
      json: { title: "x", attachments },
    });
    expectError(res, 400);
    expect(await countRows("todos_table")).toBe(before.todos);
    expect(await countRows("todo_attachments_table")).toBe(before.rows);
  });

  it("T3: stores 20 attachments (more than fit one 100-parameter statement)", async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, (_, i) => storedKey(`f${i}.txt`)));
    const todo = await createTodo(alice, { attachments: keys.map((fileKey) => ({ fileKey })) });
    expect(todo.attachments!.map((a) => a.fileKey).toSorted()).toEqual(keys.toSorted());
  });

  it("is atomic: a failing attachment insert leaves no todo behind", async () => {
    const key = await storedKey();
    const before = await countRows("todos_table");
    const res = await fetchWithEnv(
      "/api/todos",
      {
        method: "POST",
        token: alice.token,
        body: JSON.stringify({ title: "atomic", attachments: [{ fileKey: key }] }),
        headers: { "Content-Type": "application/json" },
      },
      { DB: duplicatingLastStatement(env.DB) },
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ success: false, error: { message: "Internal server error" } });
    expect(await countRows("todos_table")).toBe(before);
  });
});

/** The real D1, whose batch() repeats its last statement: a real UNIQUE(todoId, fileKey) failure. */
function duplicatingLastStatement(db: D1Database): D1Database {
  return withFaults(db, {
    batch: (statements: D1PreparedStatement[]) => db.batch([...statements, statements.at(-1)!]),
  });
}

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
      expect(res.status).toBe(201);
      expect(res.body.data.scheduleAt).toBe(stored);
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
    for (const query of [
      "pageSize=0",
      "pageSize=101",
      "pageSize=-1",
      "pageSize=x",
      "page=0",
      "completed=yes",
    ]) {
      expectError(await api(`/api/todos?${query}`, { token: alice.token }), 400);
    }
    const res = await api("/api/todos?page=1000000000", { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.data.items).toEqual([]);
    expect(res.body.data.total).toBeGreaterThan(0);
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
    expect((await api(`/api/todos/${todo.id}`, { token: alice.token })).body.data).toMatchObject({
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
    expect(read.body.data).toMatchObject({ title, description: "'); DROP TABLE todos_table;--" });
    // Exactly one row more: the text neither dropped the table nor matched other rows.
    expect(await countRows("todos_table")).toBe(before + 1);
  });
});

describe("GET /api/todos and /api/users/:userId/todos", () => {
  let carol: SignedUpUser;
  let ids: number[];

  beforeAll(async () => {
    carol = await signUp();
    ids = [];
    for (let i = 0; i < 5; i++)
      ids.push((await createTodo(carol, { title: `c${i}`, completed: i % 2 === 0 })).id);
  });

  it("pages the caller's todos newest first without attachments", async () => {
    const first = await api("/api/todos?pageSize=2", { token: carol.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ page: 1, pageSize: 2, total: 5, totalPages: 3 });
    expect(first.body.data.items.map((t: Todo) => t.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.data.items[0]).not.toHaveProperty("attachments");
    const last = await api("/api/todos?pageSize=2&page=3", { token: carol.token });
    expect(last.body.data.items.map((t: Todo) => t.id)).toEqual([ids[0]]);
    const defaults = await api("/api/todos", { token: carol.token });
    expect(defaults.body.data).toMatchObject({ page: 1, pageSize: 20, total: 5 });
    expect(defaults.body.data.items.every((t: Todo) => t.userId === carol.userId)).toBe(true);
  });

  it("filters by completed", async () => {
    const done = await api("/api/todos?completed=true", { token: carol.token });
    expect(done.body.data.items.map((t: Todo) => t.id)).toEqual([ids[4], ids[2], ids[0]]);
    const open = await api("/api/todos?completed=false", { token: carol.token });
    expect(open.body.data).toMatchObject({ total: 2 });
  });

  it("lists one's own todos under /api/users/:userId/todos; A6: others get 403", async () => {
    const own = await api(`/api/users/${carol.userId}/todos?pageSize=1`, { token: carol.token });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ total: 5, totalPages: 5 });
    expectError(await api(`/api/users/${carol.userId}/todos`, { token: bob.token }), 403);
    expectError(await api(`/api/users/999999999/todos`, { token: bob.token }), 403);
  });

  it("lets an admin list anyone's todos, 404 for an unknown user", async () => {
    const admin = await signUp();
    await makeAdmin(admin.userId);
    const res = await api(`/api/users/${carol.userId}/todos?completed=false`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(2);
    expectError(await api(`/api/users/999999999/todos`, { token: admin.token }), 404, "User not found");
  });

  it("answers 401 without a token", async () => {
    expectError(await api("/api/todos"), 401);
    expectError(await api("/api/todos", { method: "POST", json: { title: "x" } }), 401);
  });
});

describe("GET, update and delete one todo", () => {
  it("reads a todo with its attachments", async () => {
    const key = await storedKey("a.txt");
    const todo = await createTodo(alice, { attachments: [{ fileKey: key }] });
    const res = await api(`/api/todos/${todo.id}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(todo);
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
    const done = await update(alice, todo.id, {
      completed: true,
      title: "new",
      scheduleAt: "2027-01-01T00:00:00Z",
    });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      title: "new",
      completed: true,
      scheduleAt: "2027-01-01T00:00:00.000Z",
    });
    const completedAt = done.body.data.completedAt;
    expect(completedAt).toMatch(/^\d{4}-/);
    const again = await update(alice, todo.id, { completed: true });
    expect(again.body.data.completedAt).toBe(completedAt);
    const reopened = await update(alice, todo.id, { completed: false, scheduleAt: null });
    expect(reopened.body.data).toMatchObject({ completed: false, completedAt: null, scheduleAt: null });
    expect(reopened.body.data.updatedAt >= todo.updatedAt).toBe(true);
  });

  it("T2: omitted attachments stay, [] clears them, a set replaces them, all-missing keys clear them", async () => {
    const [k1, k2, k3] = await Promise.all([storedKey("1.txt"), storedKey("2.txt"), storedKey("3.txt")]);
    const todo = await createTodo(alice, { attachments: [{ fileKey: k1 }, { fileKey: k2 }] });

    expect(attachedKeys((await update(alice, todo.id, { title: "renamed" })).body.data)).toEqual(
      [k1, k2].toSorted(),
    );
    expect(
      attachedKeys(
        (await update(alice, todo.id, { attachments: [{ fileKey: k2 }, { fileKey: k3 }] })).body.data,
      ),
    ).toEqual([k2, k3].toSorted());
    expect((await update(alice, todo.id, { attachments: [] })).body.data.attachments).toEqual([]);
    await update(alice, todo.id, { attachments: [{ fileKey: k1 }] });
    const missing = await update(alice, todo.id, {
      attachments: [{ fileKey: `${crypto.randomUUID()}-gone` }],
    });
    expect(missing.body.data.attachments).toEqual([]);
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
      { DB: duplicatingLastStatement(env.DB) },
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ success: false, error: { message: "Internal server error" } });
    expect(await snapshot(todo.id)).toEqual(before);
  });

  it("T3: a batch that throws (wrapped D1) leaves the todo and old attachments intact", async () => {
    const key = await storedKey();
    const todo = await createTodo(alice, { attachments: [{ fileKey: key }] });
    const before = await snapshot(todo.id);
    const failing = withFaults(env.DB, { batch: () => injected("D1_ERROR batch") });
    const res = await fetchWithEnv(
      `/api/todos/${todo.id}`,
      {
        method: "POST",
        token: alice.token,
        body: JSON.stringify({ title: "changed", attachments: [] }),
        headers: { "Content-Type": "application/json" },
      },
      { DB: failing },
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
    expect(res.status).toBe(200);
    expect(res.body.data.attachments).toHaveLength(20);
    expect((await snapshot(todo.id)).attachments).toHaveLength(20);
  });

  it("T4: deleting a todo cascades its attachment rows; every object still answers HEAD", async () => {
    const keys = await Promise.all([storedKey(), storedKey()]);
    const todo = await createTodo(alice, { attachments: keys.map((fileKey) => ({ fileKey })) });
    const objects = await countObjects();
    const res = await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: todo.id } });
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
