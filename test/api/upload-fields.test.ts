import { parse as parseDisposition } from "content-disposition";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { api, expectError, request, expectData, readResult } from "../helpers/http";
import { multipartBody, streamedUpload } from "../helpers/multipart";
import { bytes, countObjects, fetchWithEnv, sha256, recordingBucket } from "../helpers/storage";
import { UploadResultSchema } from "../../src/routes/files/files.schemas";
import { type UploadResult } from "../../src/files/form-upload";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const MiB = 1024 * 1024;

let token: string;
beforeAll(async () => {
  ({ token } = await signUp());
});

async function postUpload(body: BodyInit, contentType?: string) {
  return api("/api/upload", {
    method: "POST",
    token,
    body,
    headers: contentType ? { "Content-Type": contentType } : undefined,
  });
}

async function expectStored(res: Awaited<ReturnType<typeof postUpload>>): Promise<UploadResult> {
  return expectData(res, 201, UploadResultSchema);
}

const downloadPath = (key: string) => `/api/download/${encodeURIComponent(key)}`;

/** A streamed upload stored through `bucket` (a recording one); the documented result. */
async function uploadInto(bucket: R2Bucket, body: BodyInit, contentType: string): Promise<UploadResult> {
  const init = { method: "POST", token, body, headers: { "Content-Type": contentType }, duplex: "half" };
  const res = await fetchWithEnv("/api/upload", init as RequestInit, { R2_BUCKET: bucket });
  return expectData(await readResult(res), 201, UploadResultSchema);
}

describe("POST /api/upload: field order", () => {
  it("takes `directory` after a small `file` (FormData order) and stores one object", async () => {
    const before = await countObjects();
    const data = new FormData();
    data.append("file", new Blob(["quarterly"], { type: "application/pdf" }), "q3.pdf");
    data.append("directory", "reports");
    const stored = await expectStored(await postUpload(data));
    expect(stored.key).toMatch(new RegExp(`^reports/${UUID}-q3\\.pdf$`));
    expect(await countObjects()).toBe(before + 1);
    const object = await env.R2_BUCKET.get(stored.key);
    expect(await object?.text()).toBe("quarterly");
    expect(object?.customMetadata).toEqual({ originalName: "q3.pdf" });
  });

  it("moves a file larger than one part into a late `directory`, leaving no provisional object", async () => {
    const { bucket, opened: multipartKeys } = recordingBucket();
    const before = await countObjects();
    const size = 9 * MiB + 5;
    const { body, contentType } = streamedUpload(size, {
      filename: "big.bin",
      directory: "reports/2026",
      directoryAfterFile: true,
    });
    const data = await uploadInto(bucket, body, contentType);
    expect(data.key).toMatch(new RegExp(`^reports/2026/${UUID}-big\\.bin$`));
    // The multipart upload ran under the same name without the directory, then was moved.
    expect(multipartKeys).toEqual([data.key.slice("reports/2026/".length)]);
    expect(await env.R2_BUCKET.head(multipartKeys[0]!)).toBeNull();
    expect(await countObjects()).toBe(before + 1);
    const object = await env.R2_BUCKET.get(data.key);
    expect(object?.size).toBe(size);
    expect(object?.customMetadata).toEqual({ originalName: "big.bin" });
    expect(object?.httpMetadata?.contentType).toBe("application/octet-stream");
    const expected = new Uint8Array(size).fill(7);
    expect(await sha256(await object!.arrayBuffer())).toBe(await sha256(expected));
  });

  it("keeps a large upload under its first key when `directory` comes first or not at all", async () => {
    for (const directory of ["docs", undefined]) {
      const { bucket, opened: multipartKeys } = recordingBucket();
      const { body, contentType } = streamedUpload(9 * MiB, { directory });
      const data = await uploadInto(bucket, body, contentType);
      expect(multipartKeys).toEqual([data.key]);
    }
  });

  it("answers 400 for an invalid late `directory` after a large file and stores nothing", async () => {
    const before = await countObjects();
    const { body, contentType } = streamedUpload(9 * MiB, { directory: "../x", directoryAfterFile: true });
    expectError(await postUpload(body, contentType), 400, "Invalid directory");
    expect(await countObjects()).toBe(before);
  });
});

async function expectRoundTrip(stored: UploadResult, name: string) {
  const object = await env.R2_BUCKET.head(stored.key);
  expect(object?.customMetadata).toEqual({ originalName: name });
  const res = await request(downloadPath(stored.key));
  expect(res.status).toBe(200);
  expect(await res.text()).toBe("data");
  const disposition = parseDisposition(res.headers.get("Content-Disposition")!);
  expect(disposition.type).toBe("attachment");
  expect(disposition.parameters.filename).toBe(name);
}

const NAMES = ["文件.pdf", "отчёт.docx", "😀.txt", "a;b.txt", 'say "hi".txt', "x; filename=evil.txt"];

describe("POST /api/upload: Unicode filenames as clients send them", () => {
  it('stores raw UTF-8 names exactly, with `"` sent as %22 (HTML form encoding)', async () => {
    for (const name of NAMES) {
      const { body, contentType } = multipartBody([
        { name: "file", filename: name.replaceAll('"', "%22"), contentType: "text/plain", body: "data" },
      ]);
      const stored = await expectStored(await postUpload(body, contentType));
      await expectRoundTrip(stored, name);
    }
  });

  it("stores the names FormData sends, and backslash-escaped quotes", async () => {
    for (const name of NAMES) {
      const data = new FormData();
      data.append("file", new Blob(["data"], { type: "text/plain" }), name);
      await expectRoundTrip(await expectStored(await postUpload(data)), name);
    }
    const { body, contentType } = multipartBody([
      { name: "file", disposition: 'form-data; name="file"; filename="say \\"hi\\".txt"', body: "data" },
    ]);
    await expectRoundTrip(await expectStored(await postUpload(body, contentType)), 'say "hi".txt');
  });

  it("decodes RFC 8187 filename*, which wins over filename", async () => {
    const disposition = `form-data; name="file"; filename="fallback.pdf"; filename*=UTF-8''%E6%96%87%E4%BB%B6.pdf`;
    const { body, contentType } = multipartBody([{ name: "file", disposition, body: "data" }]);
    const stored = await expectStored(await postUpload(body, contentType));
    expect(stored.key).toMatch(new RegExp(`^${UUID}-文件\\.pdf$`));
    await expectRoundTrip(stored, "文件.pdf");
  });

  it("answers 400 for a malformed filename* and stores nothing", async () => {
    const before = await countObjects();
    for (const value of ["UTF-8''%E6%96", "%E6%96%87", "koi8-r''abc"]) {
      const disposition = `form-data; name="file"; filename*=${value}`;
      const { body, contentType } = multipartBody([{ name: "file", disposition, body: bytes(10) }]);
      expectError(await postUpload(body, contentType), 400, /Invalid file/);
    }
    expect(await countObjects()).toBe(before);
  });
});
