import { Hono } from "hono";
import { writes, type WritesEnv } from "./writes";

export { BaselineFeed } from "./feed-object";

interface Env extends WritesEnv {
  DB: D1Database;
  R2_BUCKET: R2Bucket;
}

const app = new Hono<{ Bindings: Env }>();

// Same work as the service's /health (one D1 round trip), without its middleware and schemas.
app.get("/health", async (c) => {
  await c.env.DB.prepare("SELECT 1").first();
  return c.json({ success: true, data: { status: "ok" } });
});

app.get("/row", async (c) => {
  const row = await c.env.DB.prepare("SELECT id, title FROM rows WHERE id = 1").first();
  return c.json({ success: true, data: row });
});

// Page 1 of GET /api/todos as the service runs it, without its framework: the same two statements
// (drizzle's rendering of src/todos/todos.queries.ts) on the same schema and indexes, in one
// batch on a D1 session, with the bookmark sent back. What the service adds on top is its own cost.
const PAGE_SQL =
  'select "id", "userId", "title", "description", "completed", "scheduleAt", "completedAt", "version", "createdAt", "updatedAt" ' +
  'from "todos_table" where "todos_table"."id" in (select "id" from "todos_table" where "todos_table"."userId" = ? ' +
  'order by "todos_table"."id" desc limit ? offset ?) order by "todos_table"."id" desc';
const COUNTS_SQL =
  'select "userId", "total", "completed" from "todo_counts_table" where "todo_counts_table"."userId" = ?';
const TODOS = 10_000;

app.get("/page", async (c) => {
  const session = c.env.DB.withSession(c.req.header("x-d1-bookmark") ?? "first-unconstrained");
  const [page, counts] = await session.batch<Record<string, unknown>>([
    session.prepare(PAGE_SQL).bind(1, 20, 0),
    session.prepare(COUNTS_SQL).bind(1),
  ]);
  const items = page!.results.map((row) => ({ ...row, completed: row.completed === 1 }));
  const total = (counts!.results[0]?.total as number | undefined) ?? 0;
  const bookmark = session.getBookmark();
  if (bookmark) c.header("x-d1-bookmark", bookmark);
  return c.json({
    success: true,
    data: { items, page: 1, pageSize: 20, total, totalPages: Math.ceil(total / 20) },
  });
});

app.post("/setup", async (c) => {
  const db = c.env.DB;
  await db.batch([
    db.prepare("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, title TEXT NOT NULL)"),
    db.prepare("INSERT OR REPLACE INTO rows (id, title) VALUES (1, 'baseline')"),
    db.prepare(
      "CREATE TABLE IF NOT EXISTS todos_table (id integer PRIMARY KEY AUTOINCREMENT NOT NULL, userId integer NOT NULL, " +
        "title text NOT NULL, description text DEFAULT '' NOT NULL, completed integer DEFAULT false NOT NULL, " +
        "scheduleAt text, completedAt text, version integer DEFAULT 1 NOT NULL, " +
        "createdAt text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL, " +
        "updatedAt text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL)",
    ),
    db.prepare("CREATE INDEX IF NOT EXISTS todos_user_id_idx ON todos_table (userId, id)"),
    db.prepare(
      "CREATE TABLE IF NOT EXISTS todo_counts_table (userId integer PRIMARY KEY NOT NULL, total integer NOT NULL, completed integer NOT NULL)",
    ),
    db.prepare("DELETE FROM todos_table"),
    // The bench's own seed (bench/scenarios/todos.mjs): the same titles, half completed.
    db.prepare(
      "INSERT INTO todos_table (userId, title, description, completed) " +
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TODOS}) ` +
        "SELECT 1, 'Benchmark todo ' || i, 'Seeded for npm run bench', i % 2 FROM n",
    ),
    db.prepare("INSERT OR REPLACE INTO todo_counts_table VALUES (1, ?, ?)").bind(TODOS, TODOS / 2),
  ]);
  return c.json({ success: true });
});

app.put("/object/:key", async (c) => {
  const length = Number(c.req.header("Content-Length"));
  const body = c.req.raw.body;
  if (!body || !Number.isSafeInteger(length)) return c.json({ success: false }, 400);
  const object = await c.env.R2_BUCKET.put(c.req.param("key"), body);
  return c.json({ success: true, data: { key: object?.key, size: object?.size } });
});

// Stored as an R2 multipart object with 8 MiB parts, as the service's streaming upload stores large files.
app.put("/object-multipart/:key", async (c) => {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  const PART = 8 * 1024 * 1024;
  const upload = await c.env.R2_BUCKET.createMultipartUpload(c.req.param("key"));
  const parts: R2UploadedPart[] = [];
  for (let offset = 0, n = 1; offset < bytes.byteLength; offset += PART, n++) {
    parts.push(await upload.uploadPart(n, bytes.subarray(offset, offset + PART)));
  }
  const object = await upload.complete(parts);
  return c.json({ success: true, data: { key: object.key, size: object.size } });
});

// Raw R2 streaming: the ceiling for the service's download route.
app.get("/object/:key", async (c) => {
  const object = await c.env.R2_BUCKET.get(c.req.param("key"));
  if (!object) return c.json({ success: false }, 404);
  return new Response(object.body, {
    headers: { "Content-Type": "application/octet-stream", ETag: object.httpEtag },
  });
});

app.route("/", writes);

export default app;
