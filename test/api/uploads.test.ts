import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { signUp } from "../helpers/auth";
import { api, expectError, request, expectData } from "../helpers/http";
import { bytes, sha256 } from "../helpers/storage";
import {
  finish,
  MiB,
  multipartAccepts,
  putPart,
  r2UploadIdOf,
  startUpload,
  uploadRows,
  type UploadSession,
} from "../helpers/uploads";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";
import { PartResultSchema, AbortedUploadSchema } from "../../src/routes/uploads/uploads.schemas";
import { UploadResultSchema } from "../../src/routes/files/files.schemas";
import { dataDb, firstRowAnywhere, runEverywhere } from "../helpers/shards";

const PART = 5 * MiB;
let token: string;

beforeAll(async () => {
  ({ token } = await signUp());
});

async function expire(uploadId: string) {
  await runEverywhere(
    "UPDATE uploads_table SET expiresAt = '2000-01-01T00:00:00.000Z' WHERE id = ?",
    uploadId,
  );
}

describe("resumable uploads", () => {
  it("completes a 3-part upload sent out of order with a retried part; it downloads whole and attaches", async () => {
    const file = bytes(2 * PART + 1234, 7);
    const session = await startUpload(token, {
      fileName: "holiday video.mp4",
      contentType: "video/mp4",
      directory: "videos/2026",
      size: file.length,
    });
    expect(session.partSize).toBe(PART);
    expect(session.key).toMatch(/^videos\/2026\/[0-9a-f-]{36}-holiday video\.mp4$/);
    const ttl = Date.parse(session.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(23 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);

    const slice = (n: number) => file.subarray((n - 1) * PART, n * PART);
    const third = await putPart(token, session.uploadId, 3, slice(3));
    expect(expectData(third, 200, PartResultSchema)).toEqual({ partNumber: 3, etag: expect.any(String) });
    expect((await putPart(token, session.uploadId, 1, bytes(PART, 99))).status).toBe(200);
    expect((await putPart(token, session.uploadId, 1, slice(1))).status).toBe(200); // the retry replaces it
    expect((await putPart(token, session.uploadId, 2, slice(2))).status).toBe(200);

    const done = await finish(token, session.uploadId);
    expect(expectData(done, 201, UploadResultSchema)).toEqual({
      key: session.key,
      etag: expect.any(String),
      size: file.length,
      contentType: "video/mp4",
    });
    expect(await uploadRows(session.uploadId)).toBe(0);

    const download = await request(`/api/download/${encodeURIComponent(session.key)}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).toContain("holiday%20video.mp4");
    expect(await sha256(await download.arrayBuffer())).toBe(await sha256(file));

    const todo = await api("/api/todos", {
      method: "POST",
      token,
      json: { title: "Watch", attachments: [{ fileKey: session.key }] },
    });
    expect(expectData(todo, 201, TodoWithAttachmentsSchema).attachments).toMatchObject([
      { fileKey: session.key, fileSize: file.length },
    ]);
    // Finished means finished: no more parts, no second completion.
    expectError(await finish(token, session.uploadId), 404, "Upload not found");
  });

  it("U13: two completions at once: one stores the file, the other is 409 and deletes nothing", async () => {
    const content = bytes(1234, 3);
    const session = await startUpload(token, { fileName: "raced.bin", size: content.length });
    expect((await putPart(token, session.uploadId, 1, content)).status).toBe(200);
    const answers = await Promise.all([finish(token, session.uploadId), finish(token, session.uploadId)]);
    expect(answers.map((answer) => answer.status).toSorted()).toEqual([201, 409]);
    const loser = answers.find((answer) => answer.status === 409)!;
    expectError(loser, 409, /being completed/);
    expect(loser.headers.get("Retry-After")).toMatch(/^\d+$/);
    const download = await request(`/api/download/${encodeURIComponent(session.key)}`);
    expect(download.status).toBe(200);
    expect(await sha256(await download.arrayBuffer())).toBe(await sha256(content));
    expect(await uploadRows(session.uploadId)).toBe(0);
  });

  it("U13: parts and abort wait for a completion under way; a claim that lapsed is taken over", async () => {
    const session = await startUpload(token, { fileName: "claimed.bin", size: 10 });
    expect((await putPart(token, session.uploadId, 1, bytes(10))).status).toBe(200);
    const claim = (at: string) =>
      runEverywhere("UPDATE uploads_table SET completingAt = ? WHERE id = ?", at, session.uploadId);
    await claim(new Date().toISOString());
    expectError(await putPart(token, session.uploadId, 1, bytes(10)), 409, /being completed/);
    expectError(await finish(token, session.uploadId, "abort"), 409, /being completed/);
    expectError(await finish(token, session.uploadId), 409, /being completed/);
    // The request that claimed it died three minutes ago: the claim has lapsed.
    await claim(new Date(Date.now() - 180_000).toISOString());
    expect((await finish(token, session.uploadId)).status).toBe(201);
  });

  it("checks part sizes on completion when the size was not declared", async () => {
    const session = await startUpload(token, { fileName: "unknown-size.bin" });
    expect((await putPart(token, session.uploadId, 1, bytes(PART - 1))).status).toBe(200);
    expect((await putPart(token, session.uploadId, 2, bytes(10))).status).toBe(200);
    expectError(await finish(token, session.uploadId), 400, `Part 1 must be ${PART} bytes, got ${PART - 1}`);
    expect((await putPart(token, session.uploadId, 1, bytes(PART))).status).toBe(200);
    const done = await finish(token, session.uploadId);
    expect(expectData(done, 201, UploadResultSchema)).toMatchObject({
      size: PART + 10,
      contentType: "application/octet-stream",
    });
  });

  it("abort answers 200 and leaves no object, no R2 parts and no rows", async () => {
    const session = await startUpload(token, { fileName: "dropped.bin", size: PART + 1 });
    expect((await putPart(token, session.uploadId, 1, bytes(PART))).status).toBe(200);
    const r2UploadId = await r2UploadIdOf(session.uploadId);
    expect(await multipartAccepts(session.key, r2UploadId)).toBe(true); // the probe can tell

    const aborted = await finish(token, session.uploadId, "abort");
    expect(expectData(aborted, 200, AbortedUploadSchema)).toEqual({ uploadId: session.uploadId });
    expect(await env.R2_BUCKET.head(session.key)).toBeNull();
    expect(await multipartAccepts(session.key, r2UploadId)).toBe(false);
    expect(await uploadRows(session.uploadId)).toBe(0);
    expectError(await putPart(token, session.uploadId, 2, bytes(1)), 404, "Upload not found");
    expectError(await finish(token, session.uploadId), 404, "Upload not found");
  });

  it("answers 404 for another user's upload on every operation and leaves it intact", async () => {
    const owner = await signUp();
    const other = await signUp();
    const session = await startUpload(owner.token, { fileName: "mine.bin", size: 10 });
    expect((await putPart(owner.token, session.uploadId, 1, bytes(10))).status).toBe(200);
    const rows = await uploadRows(session.uploadId);

    expectError(await putPart(other.token, session.uploadId, 1, bytes(10, 3)), 404, "Upload not found");
    expectError(await finish(other.token, session.uploadId), 404, "Upload not found");
    expectError(await finish(other.token, session.uploadId, "abort"), 404, "Upload not found");
    expect(await uploadRows(session.uploadId)).toBe(rows);

    const done = await finish(owner.token, session.uploadId);
    expect(done.status).toBe(201);
    const body = await (await request(`/api/download/${encodeURIComponent(session.key)}`)).arrayBuffer();
    expect(await sha256(body)).toBe(await sha256(bytes(10)));
  });

  it("answers 410 for an expired upload and aborts it; the cron trigger aborts the rest", async () => {
    const touched = await startUpload(token, { fileName: "late.bin", size: 10 });
    const forgotten: UploadSession = await startUpload(token, { fileName: "forgotten.bin", size: 10 });
    expect((await putPart(token, forgotten.uploadId, 1, bytes(10))).status).toBe(200);
    const forgottenR2 = await r2UploadIdOf(forgotten.uploadId);
    await expire(touched.uploadId);
    await expire(forgotten.uploadId);

    expectError(await putPart(token, touched.uploadId, 1, bytes(10)), 410, /^Upload expired/);
    expect(await uploadRows(touched.uploadId)).toBe(0);
    expectError(await finish(token, touched.uploadId), 404);

    await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env);
    expect(await uploadRows(forgotten.uploadId)).toBe(0);
    expect(await multipartAccepts(forgotten.key, forgottenR2)).toBe(false);
    expect(await env.R2_BUCKET.head(forgotten.key)).toBeNull();
  });

  it("the cron trigger drops the leftover row of a completed upload and keeps its object", async () => {
    const session = await startUpload(token, { fileName: "kept.bin", size: 10 });
    expect((await putPart(token, session.uploadId, 1, bytes(10))).status).toBe(200);
    const row = await firstRowAnywhere<Record<string, unknown>>(
      "SELECT * FROM uploads_table WHERE id = ?",
      session.uploadId,
    );
    // The upload's id names its owner, whose data database holds its row.
    const shard = await dataDb({ userId: Number(row!.userId) });
    expect((await finish(token, session.uploadId)).status).toBe(201);
    // As if the row's delete had failed after R2 completed the upload.
    await shard
      .prepare(
        "INSERT INTO uploads_table (id, userId, key, r2UploadId, contentType, partSize, size, expiresAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(
        row!.id,
        row!.userId,
        row!.key,
        row!.r2UploadId,
        row!.contentType,
        row!.partSize,
        row!.size,
        "2000-01-01T00:00:00.000Z",
      )
      .run();
    await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env);
    expect(await uploadRows(session.uploadId)).toBe(0);
    expect((await env.R2_BUCKET.head(session.key))?.size).toBe(10);
  });

  it("deleting the user removes their unfinished uploads' rows", async () => {
    const user = await signUp();
    const session = await startUpload(user.token, { fileName: "a.bin", size: 10 });
    expect((await putPart(user.token, session.uploadId, 1, bytes(10))).status).toBe(200);
    const res = await api(`/api/users/${user.userId}/delete`, { method: "POST", token: user.token });
    expect(res.status).toBe(200);
    expect(await uploadRows(session.uploadId)).toBe(0);
  });
});
