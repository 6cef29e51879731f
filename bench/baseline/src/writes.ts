import { Hono } from "hono";
import { sign, verify } from "hono/jwt";

// POST /api/todos as the service runs it, without its framework: the same HS256 check, then the same
// INSERT ... RETURNING (drizzle's rendering of src/todos/todo-create.queries.ts) in one batch on a D1
// session, against the service's own schema and triggers (`WRITES` has its migrations applied). With
// `?publish=1` the event goes to the user's BaselineFeed after the answer, as the service's feed does.

export interface WritesEnv {
  WRITES: D1Database;
  FEED: DurableObjectNamespace<import("./feed-object").BaselineFeed>;
  JWT_SECRET: string;
}

const INSERT_SQL =
  'insert into "todos_table" ("id", "userId", "title", "description", "completed", "scheduleAt", "completedAt", "version", "createdAt", "updatedAt") ' +
  "values (null, ?, ?, ?, ?, ?, CASE WHEN ? THEN (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) END, ?, (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))) " +
  'returning "id", "userId", "title", "description", "completed", "scheduleAt", "completedAt", "version", "createdAt", "updatedAt"';
const USER_ID = 1;

let key: { secret: string; key: Promise<CryptoKey> } | undefined;
function hmacKey(secret: string): Promise<CryptoKey> {
  if (key?.secret !== secret) {
    const raw = new TextEncoder().encode(secret);
    const imported = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    key = { secret, key: imported };
  }
  return key.key;
}

export const writes = new Hono<{ Bindings: WritesEnv }>();

// The bench's user in the service's schema, and a token for it.
writes.post("/setup-writes", async (c) => {
  await c.env.WRITES.prepare(
    "INSERT OR IGNORE INTO users_table (id, username, usernameKey, name, email) VALUES (?, 'bench', 'bench', 'Bench', 'bench@example.test')",
  )
    .bind(USER_ID)
    .run();
  const now = Math.floor(Date.now() / 1000);
  const token = await sign(
    { sub: String(USER_ID), iat: now, exp: now + 3600 },
    await hmacKey(c.env.JWT_SECRET),
    "HS256",
  );
  return c.json({ success: true, data: { token, userId: USER_ID } });
});

writes.post("/todos", async (c) => {
  const auth = c.req.header("Authorization");
  if (!auth?.startsWith("Bearer "))
    return c.json({ success: false, error: { message: "Unauthorized" } }, 401);
  const claims = await verify(auth.slice(7), await hmacKey(c.env.JWT_SECRET), { alg: "HS256", typ: "JWT" });
  const userId = Number(claims.sub);
  const body = await c.req.json<{ title?: unknown }>();
  if (typeof body.title !== "string")
    return c.json({ success: false, error: { message: "Invalid title" } }, 400);
  const session = c.env.WRITES.withSession("first-primary");
  const [inserted] = await session.batch<Record<string, unknown>>([
    session.prepare(INSERT_SQL).bind(userId, body.title, "", 0, null, 0, 1),
  ]);
  const row = inserted!.results[0]!;
  const todo = { ...row, completed: row.completed === 1, attachments: [] };
  if (c.req.query("publish") === "1") {
    const event = { type: "todo.created", id: row.id as number, version: row.version as number };
    c.executionCtx.waitUntil(c.env.FEED.getByName(`user-${userId}`).publish(event));
  }
  c.header("ETag", `"todo-${row.id}-v${row.version}"`);
  return c.json({ success: true, data: todo }, 201);
});

// The baseline's live feed: one socket per listener, as the service's /agents/todo-feed-agent/user-<id>.
writes.get("/feed/:user", (c) => c.env.FEED.getByName(`user-${c.req.param("user")}`).fetch(c.req.raw));
