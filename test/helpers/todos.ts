import type { z } from "@hono/zod-openapi";
import { env } from "cloudflare:workers";
import { TodoPageSchema, TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";
import type { SignedUpUser } from "./auth";
import { withFaults } from "./faults";
import { allDataDbs, firstRowAnywhere } from "./shards";
import { api, expectData, type ApiResult } from "./http";

export type Todo = z.infer<typeof TodoWithAttachmentsSchema>;

export async function createTodo(user: SignedUpUser, body: Record<string, unknown> = {}): Promise<Todo> {
  const res = await api("/api/todos", { method: "POST", token: user.token, json: { title: "t", ...body } });
  return expectData(res, 201, TodoWithAttachmentsSchema);
}

/** Uploads a small object directly to R2 under a fresh key of the upload format. */
export async function storedKey(name = "f.txt", directory?: string): Promise<string> {
  const key = `${directory ? `${directory}/` : ""}${crypto.randomUUID()}-${name}`;
  await env.R2_BUCKET.put(key, `content of ${name}`);
  return key;
}

/** The todo row and its attachment rows exactly as stored. */
export async function snapshot(todoId: number) {
  const todo = await firstRowAnywhere("SELECT * FROM todos_table WHERE id = ?", todoId);
  const attachments = [];
  for (const db of allDataDbs()) {
    const rows = await db
      .prepare("SELECT * FROM todo_attachments_table WHERE todoId = ? ORDER BY id")
      .bind(todoId)
      .all();
    attachments.push(...rows.results);
  }
  return { todo, attachments };
}

/** Rows in one todo table (the database is shared by the file's tests: compare before and after). */
export async function countRows(table: "todos_table" | "todo_attachments_table"): Promise<number> {
  let n = 0;
  for (const db of allDataDbs())
    n += (await db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0;
  return n;
}

export const attachedKeys = (t: Todo) => t.attachments!.map((a) => a.fileKey).toSorted();

export const update = (user: SignedUpUser, id: number, json: unknown) =>
  api(`/api/todos/${id}`, { method: "POST", token: user.token, json });

/** An answered todo (read or update), checked against the documented schema. */
export const todoOf = (res: ApiResult) => expectData(res, 200, TodoWithAttachmentsSchema);
export const pageOf = (res: ApiResult) => expectData(res, 200, TodoPageSchema);
export const updated = async (user: SignedUpUser, id: number, json: unknown) =>
  todoOf(await update(user, id, json));

/** The real D1, whose batch() repeats its last statement: a real UNIQUE(todoId, fileKey) failure. */
export function duplicatingLastStatement(db: D1Database): D1Database {
  return withFaults(db, {
    batch: (statements: D1PreparedStatement[]) => db.batch([...statements, statements.at(-1)!]),
  });
}
