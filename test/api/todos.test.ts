import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { makeAdmin } from "../helpers/db";
import { api, expectData, expectError } from "../helpers/http";
import { onShardOf } from "../helpers/shards";
import { fetchWithEnv } from "../helpers/storage";
import { countRows, createTodo, duplicatingLastStatement, pageOf, storedKey } from "../helpers/todos";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";
import { UploadResultSchema } from "../../src/routes/files/files.schemas";

let alice: SignedUpUser;
let bob: SignedUpUser;

beforeAll(async () => {
  [alice, bob] = await Promise.all([signUp(), signUp()]);
});

describe("POST /api/todos", () => {
  it("creates a todo owned by the token's user and answers 201 with todoVo", async () => {
    const res = await api("/api/todos", {
      method: "POST",
      token: alice.token,
      json: { title: "Write report", description: "Q3", scheduleAt: "2026-12-01T10:00:00+01:00" },
    });
    const todo = expectData(res, 201, TodoWithAttachmentsSchema);
    expect(todo).toMatchObject({
      userId: alice.userId,
      title: "Write report",
      description: "Q3",
      completed: false,
      completedAt: null,
      scheduleAt: "2026-12-01T09:00:00.000Z",
      attachments: [],
    });
    expect(todo.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
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
    const todo = await createTodo(alice, {
      attachments: [{ fileKey: expectData(uploaded, 201, UploadResultSchema).key }],
    });
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
      // Where the insert runs: alice's data database (the directory is not read when her route is remembered).
      await onShardOf({ userId: alice.userId }, duplicatingLastStatement),
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ success: false, error: { message: "Internal server error" } });
    expect(await countRows("todos_table")).toBe(before);
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
    const first = pageOf(await api("/api/todos?pageSize=2", { token: carol.token }));
    expect(first).toMatchObject({ page: 1, pageSize: 2, total: 5, totalPages: 3 });
    expect(first.items.map((t) => t.id)).toEqual([ids[4], ids[3]]);
    expect(first.items[0]).not.toHaveProperty("attachments");
    const last = pageOf(await api("/api/todos?pageSize=2&page=3", { token: carol.token }));
    expect(last.items.map((t) => t.id)).toEqual([ids[0]]);
    const defaults = pageOf(await api("/api/todos", { token: carol.token }));
    expect(defaults).toMatchObject({ page: 1, pageSize: 20, total: 5 });
    expect(defaults.items.every((t) => t.userId === carol.userId)).toBe(true);
  });

  it("filters by completed", async () => {
    const done = pageOf(await api("/api/todos?completed=true", { token: carol.token }));
    expect(done.items.map((t) => t.id)).toEqual([ids[4], ids[2], ids[0]]);
    const open = pageOf(await api("/api/todos?completed=false", { token: carol.token }));
    expect(open).toMatchObject({ total: 2 });
  });

  it("lists one's own todos under /api/users/:userId/todos; A6: others get 403", async () => {
    const own = await api(`/api/users/${carol.userId}/todos?pageSize=1`, { token: carol.token });
    expect(pageOf(own)).toMatchObject({ total: 5, totalPages: 5 });
    expectError(await api(`/api/users/${carol.userId}/todos`, { token: bob.token }), 403);
    expectError(await api(`/api/users/999999999/todos`, { token: bob.token }), 403);
  });

  it("lets an admin list anyone's todos, 404 for an unknown user", async () => {
    const admin = await signUp();
    await makeAdmin(admin.userId);
    const res = await api(`/api/users/${carol.userId}/todos?completed=false`, { token: admin.token });
    expect(pageOf(res).total).toBe(2);
    expectError(await api(`/api/users/999999999/todos`, { token: admin.token }), 404, "User not found");
  });

  it("answers 401 without a token", async () => {
    expectError(await api("/api/todos"), 401);
    expectError(await api("/api/todos", { method: "POST", json: { title: "x" } }), 401);
  });
});
