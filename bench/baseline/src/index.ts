import { Hono } from "hono";

interface Env {
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

app.post("/setup", async (c) => {
  await c.env.DB.batch([
    c.env.DB.prepare("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, title TEXT NOT NULL)"),
    c.env.DB.prepare("INSERT OR REPLACE INTO rows (id, title) VALUES (1, 'baseline')"),
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

export default app;
