// Faults injected into the real local bindings (docs/security.md T3, T6, E1): each
// answer is a clear 5xx/503 in the envelope, and the stored state (every D1 row, every R2 object)
// is exactly what it was before the request.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { onShardOf } from "../helpers/shards";
import { registration, signUp, type SignedUpUser } from "../helpers/auth";
import { injected, withFaults } from "../helpers/faults";
import { api, expectData } from "../helpers/http";
import { snapshotState, stateDiff } from "../helpers/state";
import { bytes, fetchWithEnv } from "../helpers/storage";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";

let alice: SignedUpUser;

beforeAll(async () => {
  alice = await signUp();
});

const STORAGE_DOWN = "File storage is not answering, try again";
// Words that would reveal internals: the injected message, SQL, binding and class names.
const INTERNALS = /injected|SQL|D1_|R2_BUCKET|AUTH_LIMITER|StorageError|at \w+ \(|constraint/i;

/** Runs a request against wrapped bindings and checks the answer and the state around it. */
async function underFault(
  name: string,
  send: () => Promise<Response>,
  expected: { status: number; message: string; retryAfter?: boolean },
) {
  const before = await snapshotState();
  const res = await send();
  const text = await res.text();
  const after = await snapshotState();
  const diff = stateDiff(before, after);
  console.log(
    `fault: ${name} -> ${res.status} ${text}; stored state ${diff ? `CHANGED (${diff})` : "identical before/after"} ` +
      `(${Object.entries(after.tables)
        .map(([t, s]) => `${t}=${s.rows}`)
        .join(", ")}, R2 objects=${after.r2.objects})`,
  );
  expect(res.status, text).toBe(expected.status);
  expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(JSON.parse(text)).toEqual({ success: false, error: { message: expected.message } });
  expect(text).not.toMatch(INTERNALS);
  if (expected.retryAfter) expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
  expect(diff).toBeNull();
  // Rows a failed write left and then removed (a quota reservation) are no change: write counts aside.
  expect({ ...after, writes: {} }).toEqual({ ...before, writes: {} });
}

const json = (token: string, body: unknown) => ({
  method: "POST",
  token,
  body: JSON.stringify(body),
  headers: { "Content-Type": "application/json" },
});

async function storedKey(): Promise<string> {
  const key = `${crypto.randomUUID()}-f.txt`;
  await env.R2_BUCKET.put(key, "attachment");
  return key;
}

async function todoWithAttachment(): Promise<{ id: number; key: string }> {
  const key = await storedKey();
  const res = await api(
    "/api/todos",
    json(alice.token, { title: "before", attachments: [{ fileKey: key }] }),
  );
  return { id: expectData(res, 201, TodoWithAttachmentsSchema).id, key };
}

/** D1 whose batch() gets one more statement that D1 itself rejects (NOT NULL), after the real ones. */
function batchWithFailingTail(db: D1Database): D1Database {
  return withFaults(db, {
    batch: (statements: D1PreparedStatement[]) =>
      db.batch([...statements, db.prepare("INSERT INTO todo_attachments_table (todoId) VALUES (NULL)")]),
  });
}

/** Env overrides with `fault` applied to alice's shard, where her todos are written (the directory only reads). */
const aliceShard = (fault: (db: D1Database) => D1Database) => onShardOf({ userId: alice.userId }, fault);

describe("the stored state", () => {
  it("counts a write in a shard as a change (every database is in the snapshot)", async () => {
    const before = await snapshotState();
    expect((await api("/api/todos", json(alice.token, { title: "seen" }))).status).toBe(201);
    const diff = stateDiff(before, await snapshotState());
    expect(diff).toMatch(/DB_SHARD_\d+\.todos_table/);
  });
});

describe("D1 failing inside the attachment batch", () => {
  it("update: batch() throwing answers 500; the todo and its attachments are untouched", async () => {
    const todo = await todoWithAttachment();
    const next = await storedKey();
    const databases = await aliceShard((db) => withFaults(db, { batch: () => injected("D1_ERROR batch") }));
    await underFault(
      "D1 batch() throws during POST /api/todos/:id with attachments",
      () =>
        fetchWithEnv(
          `/api/todos/${todo.id}`,
          json(alice.token, { title: "after", attachments: [{ fileKey: next }] }),
          databases,
        ),
      { status: 500, message: "Internal server error" },
    );
  });

  it("update: a statement D1 rejects at the end of the batch rolls back the update and the replacement", async () => {
    const todo = await todoWithAttachment();
    const next = await storedKey();
    const databases = await aliceShard(batchWithFailingTail);
    await underFault(
      "D1 rejects the last statement of the update batch (NOT NULL)",
      () =>
        fetchWithEnv(
          `/api/todos/${todo.id}`,
          json(alice.token, { title: "after", completed: true, attachments: [{ fileKey: next }] }),
          databases,
        ),
      { status: 500, message: "Internal server error" },
    );
    const unchanged = expectData(
      await api(`/api/todos/${todo.id}`, { token: alice.token }),
      200,
      TodoWithAttachmentsSchema,
    );
    expect(unchanged).toMatchObject({ title: "before", completed: false });
    expect(unchanged.attachments.map((a) => a.fileKey)).toEqual([todo.key]);
  });

  it("create: a statement D1 rejects in the batch leaves no todo and no attachment rows", async () => {
    const key = await storedKey();
    const databases = await aliceShard(batchWithFailingTail);
    await underFault(
      "D1 rejects the last statement of the create batch",
      () =>
        fetchWithEnv(
          "/api/todos",
          json(alice.token, { title: "new", attachments: [{ fileKey: key }] }),
          databases,
        ),
      { status: 500, message: "Internal server error" },
    );
  });

  it("register: a failing batch leaves neither a user nor a credential row", async () => {
    await underFault(
      "D1 rejects the last statement of the register batch",
      () => fetchWithEnv("/api/register", json("", registration()), { DB: batchWithFailingTail(env.DB) }),
      { status: 500, message: "Internal server error" },
    );
  });
});

/** A bucket whose multipart uploads fail on part `failOn`, recording what was created and aborted. */
function failingParts(failOn: number) {
  const created: string[] = [];
  const aborted: string[] = [];
  const bucket = withFaults(env.R2_BUCKET, {
    createMultipartUpload: async (key: string, options?: R2MultipartOptions) => {
      const upload = await env.R2_BUCKET.createMultipartUpload(key, options);
      created.push(key);
      return withFaults(upload, {
        uploadPart: ((part: number, value: Uint8Array) =>
          part === failOn
            ? injected("R2 uploadPart")
            : upload.uploadPart(part, value)) as R2MultipartUpload["uploadPart"],
        abort: async () => {
          aborted.push(key);
          await upload.abort();
        },
      });
    },
  });
  return { bucket, created, aborted };
}

function bigForm(size: number) {
  const form = new FormData();
  form.append("file", new Blob([bytes(size, 7)], { type: "application/octet-stream" }), "big.bin");
  return form;
}

describe("R2 failing", () => {
  it("multipart upload: part 2 failing answers 503, the upload is aborted and no object is visible", async () => {
    const { bucket, created, aborted } = failingParts(2);
    await underFault(
      "R2 uploadPart(2) throws during a 17 MiB multipart upload",
      () =>
        fetchWithEnv(
          "/api/upload",
          { method: "POST", token: alice.token, body: bigForm(17 * 1024 * 1024) },
          { R2_BUCKET: bucket },
        ),
      { status: 503, message: STORAGE_DOWN, retryAfter: true },
    );
    expect(created).toHaveLength(1);
    expect(aborted).toEqual(created);
    expect(await env.R2_BUCKET.head(created[0]!)).toBeNull();
  });

  it("multipart upload: createMultipartUpload failing answers 503 with nothing stored", async () => {
    const bucket = withFaults(env.R2_BUCKET, { createMultipartUpload: () => injected("R2 create") });
    await underFault(
      "R2 createMultipartUpload throws (9 MiB upload)",
      () =>
        fetchWithEnv(
          "/api/upload",
          { method: "POST", token: alice.token, body: bigForm(9 * 1024 * 1024) },
          { R2_BUCKET: bucket },
        ),
      { status: 503, message: STORAGE_DOWN, retryAfter: true },
    );
  });

  it("single-part upload: put failing answers 503 with nothing stored", async () => {
    const bucket = withFaults(env.R2_BUCKET, { put: () => injected("R2 put") });
    await underFault(
      "R2 put throws (small upload)",
      () =>
        fetchWithEnv(
          "/api/upload",
          { method: "POST", token: alice.token, body: bigForm(1024) },
          { R2_BUCKET: bucket },
        ),
      { status: 503, message: STORAGE_DOWN, retryAfter: true },
    );
  });

  it("download: get() failing answers 503", async () => {
    const key = await storedKey();
    const bucket = withFaults(env.R2_BUCKET, { get: () => injected("R2 get") });
    await underFault(
      "R2 get throws on GET /api/download/:key",
      () => fetchWithEnv(`/api/download/${encodeURIComponent(key)}`, {}, { R2_BUCKET: bucket }),
      { status: 503, message: STORAGE_DOWN, retryAfter: true },
    );
  });

  it("download: a body stream that breaks midway reaches the client as a broken stream; nothing changes", async () => {
    const key = `${crypto.randomUUID()}-big.bin`;
    const content = bytes(256 * 1024, 3);
    await env.R2_BUCKET.put(key, content);
    const bucket = withFaults(env.R2_BUCKET, {
      get: (async (k: string, options?: R2GetOptions) => {
        const object = (await env.R2_BUCKET.get(k, options)) as R2ObjectBody;
        let sent = false;
        const broken = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) return controller.error(new Error("R2 stream: injected fault"));
            controller.enqueue(content.subarray(0, 1000));
            sent = true;
          },
        });
        return withFaults(object, { body: broken });
      }) as R2Bucket["get"],
    });
    const before = await snapshotState();
    const res = await fetchWithEnv(`/api/download/${encodeURIComponent(key)}`, {}, { R2_BUCKET: bucket });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Length")).toBe(String(content.length));
    const outcome = await res.arrayBuffer().then(
      (body) => `read ${body.byteLength} bytes`,
      (err: Error) => `read rejected: ${err.message}`,
    );
    const diff = stateDiff(before, await snapshotState());
    console.log(
      `fault: R2 body stream errors after 1000 of ${content.length} bytes -> 200 headers, then ${outcome}; ` +
        `stored state ${diff ?? "identical before/after"}`,
    );
    expect(outcome).toMatch(/^read rejected/);
    expect(diff).toBeNull();
    // The object itself is intact for the next reader.
    expect(
      (await (await fetchWithEnv(`/api/download/${encodeURIComponent(key)}`, {}, {})).arrayBuffer())
        .byteLength,
    ).toBe(content.length);
  });

  it("attachment lookup: head() failing answers 503 before anything is written", async () => {
    const todo = await todoWithAttachment();
    const bucket = withFaults(env.R2_BUCKET, { head: () => injected("R2 head") });
    await underFault(
      "R2 head throws during POST /api/todos/:id with attachments",
      () =>
        fetchWithEnv(
          `/api/todos/${todo.id}`,
          json(alice.token, { title: "after", attachments: [{ fileKey: todo.key }] }),
          {
            R2_BUCKET: bucket,
          },
        ),
      { status: 503, message: STORAGE_DOWN, retryAfter: true },
    );
  });
});

describe("rate limiter failing", () => {
  const limiterDown = { limit: () => injected("rate limiter") } as unknown as RateLimit;

  it("login answers 503 (fails closed)", async () => {
    await underFault(
      "AUTH_LIMITER.limit throws on POST /api/login",
      () =>
        fetchWithEnv("/api/login", json("", { username: alice.username, password: alice.password }), {
          AUTH_LIMITER: limiterDown,
        }),
      { status: 503, message: "Service temporarily unavailable", retryAfter: true },
    );
  });

  it("register answers 503 and creates no user", async () => {
    await underFault(
      "AUTH_LIMITER.limit throws on POST /api/register",
      () => fetchWithEnv("/api/register", json("", registration()), { AUTH_LIMITER: limiterDown }),
      { status: 503, message: "Service temporarily unavailable", retryAfter: true },
    );
  });

  it("agents answer 503 and no instance is created", async () => {
    const name = `fault-${crypto.randomUUID()}`;
    await underFault(
      "AGENTS_LIMITER.limit throws on GET /agents/counter-agent/:name",
      () => fetchWithEnv(`/agents/counter-agent/${name}`, {}, { AGENTS_LIMITER: limiterDown }),
      { status: 503, message: "Service temporarily unavailable", retryAfter: true },
    );
    const res = await api<{ count: number }>(`/agents/counter-agent/${name}`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(0);
  });
});
