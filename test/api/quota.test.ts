// docs/security.md Q1-Q5: the per-user storage quota, under concurrency too.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { createDb } from "../../src/db/client";
import { reserve } from "../../src/files/quota";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { injected, withFaults } from "../helpers/faults";
import { expectError, readResult, type ApiResult } from "../helpers/http";
import { listFiles, recordsOf } from "../helpers/files";
import { streamedUpload } from "../helpers/multipart";
import { snapshotState, stateDiff } from "../helpers/state";
import { bytes, fetchWithEnv, recordingBucket } from "../helpers/storage";
import { finish, MiB, startUpload, uploadForm, uploadRows } from "../helpers/uploads";
import { dataDb } from "../helpers/shards";

const QUOTA_MESSAGE = /^Storage quota exceeded: the limit is (\d+) bytes, (\d+) are in use/;

/** A request through the app with a quota of `quota` bytes (and any other env values replaced). */
async function withQuota(
  quota: number,
  path: string,
  init: RequestInit & { token: string },
  overrides: Partial<Env> = {},
): Promise<ApiResult> {
  return readResult(await fetchWithEnv(path, init, { STORAGE_QUOTA_BYTES: String(quota), ...overrides }));
}

const upload = (user: SignedUpUser, quota: number, size: number, overrides: Partial<Env> = {}) =>
  withQuota(
    quota,
    "/api/upload",
    { method: "POST", token: user.token, body: uploadForm(new Blob([bytes(size)]), "q.bin") },
    overrides,
  );

const startWith = (user: SignedUpUser, quota: number, body: Record<string, unknown>) =>
  withQuota(quota, "/api/uploads", {
    method: "POST",
    token: user.token,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

const partWith = (user: SignedUpUser, quota: number, uploadId: string, n: number, body: Uint8Array) =>
  withQuota(quota, `/api/uploads/${uploadId}/parts/${n}`, {
    method: "PUT",
    token: user.token,
    body,
    // Set by the runtime for a request from outside; app.fetch() in the pool gets the object as built.
    headers: { "Content-Length": String(body.length) },
  });

/** Asserts a quota refusal naming this limit and this usage. */
function expectQuota(res: ApiResult, limit: number, used: number) {
  const { message } = expectError(res, 413, QUOTA_MESSAGE);
  const [, named, inUse] = QUOTA_MESSAGE.exec(message)!;
  expect([Number(named), Number(inUse)]).toEqual([limit, used]);
  return message;
}

/**
 * env.DB holding every quota reservation until `n` requests are waiting on one, so they all pass the
 * early check on a stale view and only the atomic reservation can decide between them.
 */
function reservationBarrier(n: number): D1Database {
  let waiting = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const held = (statement: D1PreparedStatement) =>
    withFaults(statement, {
      all: async () => {
        if (++waiting === n) open();
        await opened;
        return statement.all();
      },
    });
  return withFaults(env.DB, {
    prepare: (query: string) => {
      const statement = env.DB.prepare(query);
      if (!query.startsWith('INSERT INTO "storage_reservations_table"')) return statement;
      return withFaults(statement, { bind: (...values: unknown[]) => held(statement.bind(...values)) });
    },
  });
}

describe("STORAGE_QUOTA_BYTES", () => {
  it("Q1: an upload past the quota is 413 naming the limit and the usage, and stores nothing", async () => {
    const user = await signUp();
    expect((await upload(user, 1000, 600)).status).toBe(201);
    const before = await snapshotState();
    const message = expectQuota(await upload(user, 1000, 500), 1000, 600);
    expect(message).toContain("this upload needs more than the 400 bytes left");
    expect(stateDiff(before, await snapshotState())).toBeNull();
    // Exactly the room left fits.
    expect((await upload(user, 1000, 400)).status).toBe(201);
    expect((await listFiles(user.token)).usage).toEqual({
      bytes: 1000,
      files: 2,
      reservedBytes: 0,
      quotaBytes: 1024 ** 3,
    });
  });

  it("Q1: a streamed upload of unknown length stops at the quota, its multipart upload aborted", async () => {
    const user = await signUp();
    const { bucket, aborted, opened } = recordingBucket();
    const big = streamedUpload(12 * MiB);
    const res = await withQuota(
      10 * MiB,
      "/api/upload",
      { method: "POST", token: user.token, body: big.body, headers: { "Content-Type": big.contentType } },
      { R2_BUCKET: bucket },
    );
    expectQuota(res, 10 * MiB, 0);
    expect(opened).toHaveLength(1);
    expect(aborted).toEqual(opened);
    expect((await listFiles(user.token)).usage.bytes).toBe(0);
  });

  it("Q2: parallel uploads with room for three: exactly three are stored, whatever the order", async () => {
    const user = await signUp();
    const before = await snapshotState();
    const DB = reservationBarrier(6);
    const results = await Promise.all(Array.from({ length: 6 }, () => upload(user, 100_000, 30_000, { DB })));
    expect(results.map((r) => r.status).toSorted()).toEqual([201, 201, 201, 413, 413, 413]);
    for (const refused of results.filter((r) => r.status === 413)) expectQuota(refused, 100_000, 90_000);
    expect((await listFiles(user.token)).usage).toMatchObject({ bytes: 90_000, files: 3, reservedBytes: 0 });
    expect((await snapshotState()).r2.objects).toBe(before.r2.objects + 3);
  });

  it("Q2: reservations racing in D1 never pass the limit together", async () => {
    const user = await signUp();
    const db = createDb(env.DB);
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        reserve(
          db,
          { id: crypto.randomUUID(), userId: user.userId, key: `race-${i}`, bytes: 30, expiresAt },
          100,
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(3);
    expect(outcomes.filter((o) => o.status === "rejected")).toHaveLength(7);
    const held = await env.DB.prepare(
      "SELECT COUNT(*) AS n, SUM(bytes) AS bytes FROM storage_reservations_table WHERE userId = ?",
    )
      .bind(user.userId)
      .first<{ n: number; bytes: number }>();
    expect(held).toEqual({ n: 3, bytes: 90 });
  });

  it("Q3: a resumable upload declaring more than the room is 413 before any R2 call", async () => {
    const user = await signUp();
    const { bucket, opened } = recordingBucket();
    const res = await readResult(
      await fetchWithEnv(
        "/api/uploads",
        {
          method: "POST",
          token: user.token,
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ fileName: "big.iso", size: 7 * MiB }),
        },
        { STORAGE_QUOTA_BYTES: String(6 * MiB), R2_BUCKET: bucket },
      ),
    );
    expectQuota(res, 6 * MiB, 0);
    expect(opened).toEqual([]);
    // Declared sizes hold their room from the start.
    const session = await startWith(user, 6 * MiB, { fileName: "fits.iso", size: 4 * MiB });
    expect(session.status).toBe(201);
    expectQuota(await startWith(user, 6 * MiB, { fileName: "next.iso", size: 3 * MiB }), 6 * MiB, 4 * MiB);
  });

  it("Q3: without a declared size, the part that would pass the quota is 413; a resent part is not counted twice", async () => {
    const user = await signUp();
    const quota = 6 * MiB;
    const session = await startUpload(user.token, { fileName: "open-ended.bin" });
    expect((await partWith(user, quota, session.uploadId, 1, bytes(5 * MiB))).status).toBe(200);
    expect((await partWith(user, quota, session.uploadId, 1, bytes(5 * MiB, 2))).status).toBe(200);
    expectQuota(await partWith(user, quota, session.uploadId, 2, bytes(2 * MiB)), quota, 5 * MiB);
    expect((await partWith(user, quota, session.uploadId, 2, bytes(MiB))).status).toBe(200);
    expect((await finish(user.token, session.uploadId)).status).toBe(201);
    expect((await listFiles(user.token)).usage).toMatchObject({ bytes: 6 * MiB, files: 1, reservedBytes: 0 });
    expect(await uploadRows(session.uploadId)).toBe(0);
  });

  it("Q4: a failed put gives its reservation back at once", async () => {
    const user = await signUp();
    const bucket = withFaults(env.R2_BUCKET, { put: () => injected("R2 put") });
    expectError(await upload(user, 1000, 600, { R2_BUCKET: bucket }), 503);
    expect((await listFiles(user.token)).usage).toMatchObject({ bytes: 0, reservedBytes: 0 });
    expect((await upload(user, 1000, 1000)).status).toBe(201);
  });

  it("Q5: the cron drops expired reservations and deletes the object one left unrecorded", async () => {
    const user = await signUp();
    const orphan = `${crypto.randomUUID()}-orphan.bin`;
    const recorded = await upload(user, 1000, 10);
    const recordedKey = (recorded.body as { data: { key: string } }).data.key;
    await env.R2_BUCKET.put(orphan, "put, then the upload stopped before its record");
    const past = "2000-01-01T00:00:00.000Z";
    const shard = await dataDb({ userId: user.userId });
    await shard.batch(
      [orphan, recordedKey].map((key) =>
        shard
          .prepare(
            "INSERT INTO storage_reservations_table (id, userId, key, bytes, expiresAt) VALUES (?, ?, ?, 10, ?)",
          )
          .bind(crypto.randomUUID(), user.userId, key, past),
      ),
    );
    await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env);
    expect(await env.R2_BUCKET.head(orphan)).toBeNull();
    expect(await env.R2_BUCKET.head(recordedKey)).not.toBeNull();
    expect(await recordsOf(recordedKey)).toEqual({ files: 1, pending: 0 });
    const left = await shard
      .prepare("SELECT COUNT(*) AS n FROM storage_reservations_table WHERE userId = ?")
      .bind(user.userId)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
