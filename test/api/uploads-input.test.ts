import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { createTeam } from "../helpers/orgs";
import { placeOn, shardOf } from "../helpers/shards";
import { api, expectError, type ApiResult } from "../helpers/http";
import { bytes, countObjects, generatedStream } from "../helpers/storage";
import { craftToken } from "../helpers/tokens";
import { finish, MiB, putPart, startUpload, startUploadWith, uploadRows } from "../helpers/uploads";

const PART = 5 * MiB;
let token: string;

beforeAll(async () => {
  ({ token } = await signUp());
});

async function uploadTableRows(): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT (SELECT COUNT(*) FROM uploads_table) + (SELECT COUNT(*) FROM upload_parts_table) AS n",
  ).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Runs requests that must all be refused and checks nothing was stored in R2 or D1. */
async function expectNothingStored(run: () => Promise<void>) {
  const objects = await countObjects();
  const rows = await uploadTableRows();
  await run();
  expect(await countObjects()).toBe(objects);
  expect(await uploadTableRows()).toBe(rows);
}

const start = (json: unknown, init: { token?: string; body?: string; headers?: HeadersInit } = { token }) =>
  api("/api/uploads", { method: "POST", ...init, json: init.body === undefined ? json : undefined });

describe("resumable upload input", () => {
  it("refuses bad start requests with 400 and stores nothing", async () => {
    await expectNothingStored(async () => {
      expectError(
        await api("/api/uploads", {
          method: "POST",
          token,
          body: "{",
          headers: { "Content-Type": "application/json" },
        }),
        400,
      );
      expectError(
        await api("/api/uploads", {
          method: "POST",
          token,
          body: '{"fileName":"a"}',
          headers: { "Content-Type": "text/plain" },
        }),
        400,
      );
      for (const body of [
        {},
        { fileName: 12 },
        { fileName: "a", size: "10" },
        { fileName: "a", size: 0 },
        { fileName: "a", size: 1.5 },
        { fileName: "a", size: 2 ** 53 },
        { fileName: "a", extra: true },
        { fileName: "a", userId: 1 },
        { fileName: "a", directory: "../x" },
        { fileName: "a", directory: "a//b" },
        { fileName: "a", contentType: "not a type" },
        { fileName: "a".repeat(1025) },
      ]) {
        expectError(await start(body), 400);
      }
    });
  });

  it("refuses bad tokens with 401 before anything is stored", async () => {
    const forged = await craftToken(
      { alg: "HS256", typ: "JWT" },
      { sub: "1", exp: 1 },
      { secret: "x".repeat(40) },
    );
    const session = await startUpload(token, { fileName: "t.bin", size: 10 });
    await expectNothingStored(async () => {
      for (const bad of [undefined, "nonsense", forged]) {
        expectError(await start({ fileName: "a" }, { token: bad }), 401);
        expectError(await putPart(bad as string, session.uploadId, 1, bytes(10)), 401);
        expectError(await finish(bad as string, session.uploadId), 401);
        expectError(await finish(bad as string, session.uploadId, "abort"), 401);
      }
    });
  });

  it("refuses bad part numbers and ids with 400, and unknown ids with 404", async () => {
    const session = await startUpload(token, { fileName: "p.bin", size: 10 });
    await expectNothingStored(async () => {
      for (const n of ["0", "10001", "x", "1.5", "-1", "1e3", "01"]) {
        expectError(await putPart(token, session.uploadId, n, bytes(10)), 400, /^Invalid param/);
      }
      expectError(
        await putPart(token, session.uploadId, 2, bytes(10)),
        400,
        "Invalid part number: this upload has 1 parts",
      );
      expectError(await putPart(token, "not-a-uuid", 1, bytes(10)), 400);
      expectError(await finish(token, "not-a-uuid"), 400);
      const unknown = crypto.randomUUID();
      expectError(await putPart(token, unknown, 1, bytes(10)), 404, "Upload not found");
      expectError(await finish(token, unknown), 404, "Upload not found");
      expectError(await finish(token, unknown, "abort"), 404, "Upload not found");
    });
  });

  it("refuses empty, oversized, wrongly sized and unframed parts, keeping the good ones", async () => {
    const session = await startUpload(token, { fileName: "sizes.bin", size: 2 * PART + 5 });
    expect((await putPart(token, session.uploadId, 1, bytes(PART))).status).toBe(200);
    const rows = await uploadRows(session.uploadId);
    const refused: [ApiResult, number, string | RegExp][] = [
      [await putPart(token, session.uploadId, 2, new Uint8Array(0)), 400, "Empty part"],
      [
        await putPart(token, session.uploadId, 2, bytes(PART + 1)),
        413,
        `Part too large: parts are ${PART} bytes`,
      ],
      [
        await putPart(token, session.uploadId, 2, bytes(PART - 1)),
        400,
        `Part 2 must be ${PART} bytes, got ${PART - 1}`,
      ],
      [await putPart(token, session.uploadId, 3, bytes(4)), 400, "Part 3 must be 5 bytes, got 4"],
      [
        await putPart(token, session.uploadId, 2, generatedStream([bytes(10)])),
        411,
        /^Content-Length required/,
      ],
    ];
    for (const [res, status, message] of refused) expectError(res, status, message);
    expect(await uploadRows(session.uploadId)).toBe(rows);
  });

  it("refuses to complete with parts missing, and completes once they arrive", async () => {
    const session = await startUpload(token, { fileName: "gaps.bin", size: 2 * PART + 5 });
    expectError(await finish(token, session.uploadId), 400, "Missing parts: 1, 2, 3");
    expect((await putPart(token, session.uploadId, 3, bytes(5))).status).toBe(200);
    expect((await putPart(token, session.uploadId, 1, bytes(PART))).status).toBe(200);
    const objects = await countObjects();
    expectError(await finish(token, session.uploadId), 400, "Missing parts: 2");
    expect(await countObjects()).toBe(objects);
    expect((await putPart(token, session.uploadId, 2, bytes(PART))).status).toBe(200);
    expect((await finish(token, session.uploadId)).status).toBe(201);
    expect(await countObjects()).toBe(objects + 1);
  });

  it("grows the part size in whole MiB when a declared size needs more than 10,000 parts", async () => {
    // A quota with room for the largest resumable upload.
    const roomy = { STORAGE_QUOTA_BYTES: String(2 ** 50) };
    const huge = await startUploadWith(token, { fileName: "disk.img", size: 100 * 1024 * MiB }, roomy);
    expect(huge.partSize).toBe(11 * MiB); // 100 GiB / 10,000 = 10.24 MiB
    const largest = await startUploadWith(token, { fileName: "max.img", size: 10_000 * 95 * MiB }, roomy);
    expect(largest.partSize).toBe(95 * MiB); // still one request body under Cloudflare's 100 MB
    expectError(await start({ fileName: "too.img", size: 10_000 * 95 * MiB + 1 }), 400);
    await finish(token, huge.uploadId, "abort");
    await finish(token, largest.uploadId, "abort");
  });

  it("limits unfinished uploads per user to 20 (429), freeing a slot on abort", async () => {
    const user = await signUp();
    const sessions = [];
    for (let i = 0; i < 20; i++) sessions.push(await startUpload(user.token, { fileName: `f${i}` }));
    expectError(
      await start({ fileName: "one more" }, { token: user.token }),
      429,
      /^Too many unfinished uploads/,
    );
    expect((await finish(user.token, sessions[0]!.uploadId, "abort")).status).toBe(200);
    expect((await start({ fileName: "one more" }, { token: user.token })).status).toBe(201);
  });

  it("counts the limit across the user's workspaces: their own and a team's on another shard", async () => {
    const user = await signUp();
    const org = await createTeam(user.token);
    const own = await shardOf({ userId: user.userId });
    await placeOn({ orgId: org.id }, own === "DB_SHARD_0" ? "DB_SHARD_1" : "DB_SHARD_0");
    const sessions = [];
    for (let i = 0; i < 10; i++) {
      sessions.push(await startUpload(user.token, { fileName: `p${i}` }));
      sessions.push(await startUpload(user.token, { fileName: `t${i}`, orgId: org.id }));
    }
    for (const body of [{ fileName: "mine" }, { fileName: "team's", orgId: org.id }]) {
      expectError(await start(body, { token: user.token }), 429, /^Too many unfinished uploads/);
    }
    expect((await finish(user.token, sessions[1]!.uploadId, "abort")).status).toBe(200);
    expect((await start({ fileName: "mine" }, { token: user.token })).status).toBe(201);
  });
});
