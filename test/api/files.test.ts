import { parse as parseDisposition } from "content-disposition";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { api, expectError, request } from "../helpers/http";
import { multipartBody, streamedUpload } from "../helpers/multipart";
import { bytes, countObjects, fetchWithEnv, sha256 } from "../helpers/storage";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const utf8 = (s: string) => new TextEncoder().encode(s).byteLength;

let token: string;
beforeAll(async () => {
  ({ token } = await signUp());
});

function form(file: Blob | string | undefined, filename = "hello.txt", directory?: string) {
  const data = new FormData();
  if (directory !== undefined) data.append("directory", directory);
  if (file instanceof Blob) data.append("file", file, filename);
  else if (file !== undefined) data.append("file", file);
  return data;
}

async function postUpload(body: BodyInit, contentType?: string, auth = token) {
  return api("/api/upload", {
    method: "POST",
    token: auth,
    body,
    headers: contentType ? { "Content-Type": contentType } : undefined,
  });
}

async function uploadText(text: string, filename: string, type = "text/plain", directory?: string) {
  const res = await postUpload(form(new Blob([text], { type }), filename, directory));
  expect(res.status, res.text).toBe(201);
  return res.body.data as { key: string; etag: string; size: number; contentType: string };
}

const downloadPath = (key: string) => `/api/download/${encodeURIComponent(key)}`;

/** Runs `action` and asserts the bucket holds the same number of objects afterwards. */
async function expectNoNewObjects(action: () => Promise<void>) {
  const before = await countObjects();
  await action();
  expect(await countObjects()).toBe(before);
}

describe("POST /api/upload", () => {
  it("stores the file under <uuid>-<name> with its type and originalName, and answers 201", async () => {
    const res = await postUpload(form(new Blob(["hello world"], { type: "text/plain" }), "hello.txt"));
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(data.key).toMatch(new RegExp(`^${UUID}-hello\\.txt$`));
    expect(data).toMatchObject({ size: 11, contentType: "text/plain" });
    const object = await env.R2_BUCKET.head(data.key);
    expect(object?.etag).toBe(data.etag);
    expect(object?.customMetadata).toEqual({ originalName: "hello.txt" });
    expect(object?.httpMetadata?.contentType).toBe("text/plain");
  });

  it("puts the directory in front of the key", async () => {
    const data = await uploadText("x", "a.txt", "text/plain", "reports/2026");
    expect(data.key).toMatch(new RegExp(`^reports/2026/${UUID}-a\\.txt$`));
    expect(await env.R2_BUCKET.head(data.key)).not.toBeNull();
  });

  it("stores application/octet-stream when the file has no type", async () => {
    const { body, contentType } = multipartBody([{ name: "file", filename: "raw", body: "abc" }]);
    const res = await postUpload(body, contentType);
    expect(res.status).toBe(201);
    expect(res.body.data.contentType).toBe("application/octet-stream");
  });

  it("ignores an empty directory field and unknown fields", async () => {
    const data = new FormData();
    data.append("directory", "");
    data.append("comment", "ignored");
    data.append("file", new Blob(["1"]), "one.txt");
    const res = await postUpload(data);
    expect(res.status).toBe(201);
    expect(res.body.data.key).toMatch(new RegExp(`^${UUID}-one\\.txt$`));
  });

  it("U1: answers 400 Missing file without a file part, 400 Invalid file for a text `file`", async () => {
    await expectNoNewObjects(async () => {
      expectError(await postUpload(form(undefined, "", "docs")), 400, "Missing file");
      expectError(await postUpload(form("just text")), 400, "Invalid file");
    });
  });

  it("U2: answers 400 for JSON, urlencoded, truncated multipart and a wrong boundary", async () => {
    await expectNoNewObjects(async () => {
      expectError(await postUpload(JSON.stringify({ file: "x" }), "application/json"), 400);
      expectError(await postUpload("file=x", "application/x-www-form-urlencoded"), 400);
      const { body, contentType } = multipartBody([{ name: "file", filename: "t.txt", body: "abcdef" }]);
      expectError(await postUpload(body.subarray(0, body.length - 20), contentType), 400, /truncated/);
      expectError(await postUpload(body, "multipart/form-data; boundary=somethingelse"), 400);
      expectError(await postUpload(body, "multipart/form-data"), 400, /boundary/);
      expectError(await postUpload(new Uint8Array(0), contentType), 400);
    });
  });

  it("U3: answers 413 File too large over MAX_UPLOAD_BYTES, aborting the multipart upload", async () => {
    const limit = 9 * 1024 * 1024;
    const aborted: string[] = [];
    const bucket = spyBucket(aborted);
    await expectNoNewObjects(async () => {
      const over = streamedUpload(limit + 1);
      const res = await fetchWithEnv(
        "/api/upload",
        { method: "POST", token, body: over.body, headers: { "Content-Type": over.contentType } },
        { MAX_UPLOAD_BYTES: String(limit), R2_BUCKET: bucket },
      );
      expectError(
        { status: res.status, body: await res.json(), headers: res.headers, text: "" },
        413,
        /^File too large: .*POST \/api\/uploads/,
      );
    });
    expect(aborted).toHaveLength(1);
  });

  it("U3: accepts exactly MAX_UPLOAD_BYTES, and rejects a declared Content-Length far above it unread", async () => {
    const limit = 64 * 1024;
    const exact = streamedUpload(limit);
    const ok = await fetchWithEnv(
      "/api/upload",
      { method: "POST", token, body: exact.body, headers: { "Content-Type": exact.contentType } },
      { MAX_UPLOAD_BYTES: String(limit) },
    );
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { data: { size: number } }).data.size).toBe(limit);

    await expectNoNewObjects(async () => {
      const big = multipartBody([{ name: "file", filename: "x.bin", body: bytes(limit * 4) }]);
      const res = await fetchWithEnv(
        "/api/upload",
        { method: "POST", token, body: big.body, headers: { "Content-Type": big.contentType } },
        { MAX_UPLOAD_BYTES: String(limit) },
      );
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({
        success: false,
        error: { message: expect.stringMatching(/^File too large/) },
      });
    });
  });

  it("U11: answers 413 for a chunked body without Content-Length over the limit", async () => {
    const limit = 2 * 1024 * 1024;
    await expectNoNewObjects(async () => {
      const over = streamedUpload(limit + 1024 * 1024);
      const req = new Request("http://service.test/api/upload", {
        method: "POST",
        body: over.body,
        headers: { "Content-Type": over.contentType, Authorization: `Bearer ${token}` },
      });
      expect(req.headers.get("Content-Length")).toBeNull();
      const res = await fetchWithEnv(
        "/api/upload",
        { method: "POST", token, body: req.body, headers: { "Content-Type": over.contentType } },
        { MAX_UPLOAD_BYTES: String(limit) },
      );
      expect(res.status).toBe(413);
    });
  });

  it("U4: answers 400 Invalid directory for every unsafe directory", async () => {
    const invalid = [
      "..",
      ".",
      "a/../b",
      "/a",
      "a/",
      "a//b",
      "a\\b",
      "%2e%2e",
      "a\u0000b",
      "a\nb",
      "x".repeat(1024),
      "a b",
      "ü",
    ];
    await expectNoNewObjects(async () => {
      for (const directory of invalid) {
        expectError(await postUpload(form(new Blob(["x"]), "x.txt", directory)), 400, "Invalid directory");
      }
    });
  });

  it("U4: answers 400 when directory comes twice, or invalid after the file", async () => {
    await expectNoNewObjects(async () => {
      const twice = multipartBody([
        { name: "directory", body: "a" },
        { name: "file", filename: "x.txt", body: "x" },
        { name: "directory", body: "b" },
      ]);
      expectError(await postUpload(twice.body, twice.contentType), 400, "Invalid directory");
      const badAfter = multipartBody([
        { name: "file", filename: "x.txt", body: "x" },
        { name: "directory", body: "../up" },
      ]);
      expectError(await postUpload(badAfter.body, badAfter.contentType), 400, "Invalid directory");
    });
  });

  it("U5: sanitizes the key's filename part and keeps originalName exact", async () => {
    const names = [
      "../../x",
      "a/b\\c",
      "nul\u0000cr\rlf\n.txt",
      'quote".txt',
      "semi;colon.txt",
      "evil\u202Egpj.exe",
      "emoji 😀 👩‍👩‍👧.txt",
    ];
    for (const name of names) {
      const encoded = `UTF-8''${encodeURIComponent(name)}`;
      const { body, contentType } = multipartBody([
        { name: "file", body: "x", disposition: `form-data; name="file"; filename*=${encoded}` },
      ]);
      const res = await postUpload(body, contentType);
      expect(res.status, name).toBe(201);
      const key: string = res.body.data.key;
      const filePart = key.slice(37);
      // oxlint-disable-next-line no-control-regex -- asserting control characters are gone
      expect(filePart).not.toMatch(/[/\\\u0000-\u001f\u007f\u202e]/);
      expect(key.split("/")).toHaveLength(1);
      const object = await env.R2_BUCKET.head(key);
      expect(object?.customMetadata?.originalName).toBe(name);
    }
  });

  it("U6: keeps keys within 1,024 UTF-8 bytes and answers 400 for names over 1 KiB", async () => {
    for (const name of ["a".repeat(300) + ".txt", "é".repeat(500) + ".pdf"]) {
      const data = await uploadText("x", name, "text/plain", "d/".repeat(100) + "e");
      expect(utf8(data.key)).toBeLessThanOrEqual(1024);
      expect(data.key.endsWith(".txt") || data.key.endsWith(".pdf")).toBe(true);
      const object = await env.R2_BUCKET.head(data.key);
      expect(object?.customMetadata?.originalName).toBe(name);
      expect((await request(downloadPath(data.key))).status).toBe(200);
    }
    await expectNoNewObjects(async () => {
      for (const size of [2000, 5000]) {
        expectError(await postUpload(form(new Blob(["x"]), "n".repeat(size))), 400, /filename longer/);
      }
    });
  });

  it("U7: an empty filename becomes `file` in the key", async () => {
    const { body, contentType } = multipartBody([{ name: "file", filename: "", body: "x" }]);
    const res = await postUpload(body, contentType);
    expect(res.status).toBe(201);
    expect(res.body.data.key).toMatch(new RegExp(`^${UUID}-file$`));
    expect((await env.R2_BUCKET.head(res.body.data.key))?.customMetadata?.originalName).toBe("");
  });

  it("U8: stores text/html as given and serves it as text/html, an attachment with nosniff and a sandbox", async () => {
    const data = await uploadText("<script>alert(1)</script>", "x.html", "text/html");
    expect(data.contentType).toBe("text/html");
    const res = await request(downloadPath(data.key));
    expect(res.headers.get("Content-Type")).toBe("text/html");
    expect(res.headers.get("Content-Security-Policy")).toMatch(/sandbox/);
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await res.text()).toBe("<script>alert(1)</script>");
  });

  it("U9: answers 400 for two file parts and stores neither", async () => {
    await expectNoNewObjects(async () => {
      const two = multipartBody([
        { name: "file", filename: "a.txt", body: "a" },
        { name: "file", filename: "b.txt", body: "b" },
      ]);
      expectError(await postUpload(two.body, two.contentType), 400, "Only one file per upload");
    });
  });

  it("U10: answers 401 before reading the body", async () => {
    let pulled = 0;
    const body = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(1024));
        },
      });
    await expectNoNewObjects(async () => {
      for (const auth of [undefined, "not-a-token"]) {
        const res = await api("/api/upload", {
          method: "POST",
          token: auth,
          body: body(),
          headers: { "Content-Type": "multipart/form-data; boundary=x" },
        });
        expectError(res, 401);
      }
    });
    // The streams never end: a Worker reading one would not answer. Only buffering pulls happen.
    expect(pulled).toBeLessThanOrEqual(8);
  });

  it("U12: 20 parallel uploads of the same filename get 20 distinct, downloadable keys", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postUpload(form(new Blob([`copy ${i}`]), "same.txt"))),
    );
    const keys = results.map((r) => r.body.data.key as string);
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(keys).size).toBe(20);
    for (const [i, key] of keys.entries()) {
      expect(await (await request(downloadPath(key))).text()).toBe(`copy ${i}`);
    }
  });

  it("streams a file larger than one part through an R2 multipart upload, byte for byte", async () => {
    const content = bytes(17 * 1024 * 1024 + 123, 42);
    const created: string[] = [];
    const bucket = new Proxy(env.R2_BUCKET, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop === "createMultipartUpload")
          return (key: string, options: R2MultipartOptions) => {
            created.push(key);
            return target.createMultipartUpload(key, options);
          };
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const res = await fetchWithEnv(
      "/api/upload",
      { method: "POST", token, body: form(new Blob([content], { type: "application/x-test" }), "big.bin") },
      { R2_BUCKET: bucket },
    );
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { key: string; size: number; contentType: string } };
    expect(created).toEqual([data.key]);
    expect(data).toMatchObject({ size: content.length, contentType: "application/x-test" });
    const downloaded = await (await request(downloadPath(data.key))).arrayBuffer();
    expect(await sha256(downloaded)).toBe(await sha256(content));
  });

  it("aborts the multipart upload and stores nothing when the body breaks mid-file", async () => {
    const aborted: string[] = [];
    const head = multipartBody([{ name: "file", filename: "x.bin", body: "" }]);
    const prefix = head.body.subarray(0, head.body.length - head.contentType.split("=")[1]!.length - 8);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(prefix);
        else if (sent > 10) controller.error(new Error("client went away"));
        else controller.enqueue(new Uint8Array(1024 * 1024));
        sent++;
      },
    });
    await expectNoNewObjects(async () => {
      const res = await fetchWithEnv(
        "/api/upload",
        { method: "POST", token, body, headers: { "Content-Type": head.contentType } },
        { R2_BUCKET: spyBucket(aborted) },
      );
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await res.json()).toMatchObject({ success: false });
    });
    expect(aborted).toHaveLength(1);
  });
});

/** The real bucket, recording the keys of aborted multipart uploads. */
function spyBucket(aborted: string[]): R2Bucket {
  return new Proxy(env.R2_BUCKET, {
    get(target, prop) {
      if (prop === "createMultipartUpload") {
        return async (key: string, options: R2MultipartOptions) => {
          const multipart = await target.createMultipartUpload(key, options);
          return {
            key: multipart.key,
            uploadId: multipart.uploadId,
            uploadPart: multipart.uploadPart.bind(multipart),
            complete: multipart.complete.bind(multipart),
            abort: async () => {
              aborted.push(key);
              await multipart.abort();
            },
          };
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("GET /api/download/:key", () => {
  let stored: { key: string; etag: string };
  const content = "hello world";

  beforeAll(async () => {
    stored = await uploadText(content, "greeting.txt", "text/plain", "docs");
  });

  it("streams the object with its stored type, attachment, nosniff and ETag, without a token", async () => {
    const res = await request(downloadPath(stored.key));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(content);
    expect(res.headers.get("Content-Type")).toBe("text/plain");
    expect(res.headers.get("ETag")).toBe(`"${stored.etag}"`);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Accept-Ranges")).toBe("bytes");
    expect(res.headers.get("Content-Length")).toBe(String(content.length));
    expect(res.headers.get("Content-Disposition")).toBe(
      `attachment; filename="greeting.txt"; filename*=UTF-8''greeting.txt`,
    );
  });

  it("D6: answers application/octet-stream for an object stored without a type", async () => {
    const key = `raw-${crypto.randomUUID()}`;
    await env.R2_BUCKET.put(key, "abc");
    const res = await request(downloadPath(key));
    expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(res.headers.get("Content-Disposition")).toContain(`filename="${key}"`);
  });

  it("HEAD answers the headers without a body", async () => {
    const res = await request(downloadPath(stored.key), { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Length")).toBe(String(content.length));
    expect(res.headers.get("ETag")).toBe(`"${stored.etag}"`);
    expect(await res.text()).toBe("");
  });

  it("D1/D4: answers 404 File not found for a missing or `..`-looking key", async () => {
    // A bare `..` segment is resolved by the URL parser itself, so only encoded forms reach the route.
    for (const key of [`${crypto.randomUUID()}-nope.txt`, "../../etc/passwd", "docs/../x", "../x"]) {
      expectError(await api(downloadPath(key)), 404, "File not found");
    }
    expect((await request(downloadPath("nope"), { method: "HEAD" })).status).toBe(404);
  });

  it("D2: answers 404 for a key over 1,024 bytes without asking R2", async () => {
    for (const key of ["a".repeat(1025), "é".repeat(513)]) {
      expectError(await api(downloadPath(key)), 404, "File not found");
    }
  });

  it("D3: finds keys with %2F, %25, +, space, unicode, # and ?", async () => {
    const keys = ["a/b/c.txt", "100%25 done.txt", "a+b c.txt", "ü/日本.txt", "x#y?z=1.txt", "50%.txt"];
    for (const key of keys) {
      const body = bytes(64, key.length);
      await env.R2_BUCKET.put(key, body);
      const res = await request(downloadPath(key));
      expect(res.status, key).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(body);
    }
  });

  it("D5: Content-Disposition round-trips awkward names through content-disposition.parse()", async () => {
    const names = [
      'q"uote.txt',
      "back\\slash.txt",
      "semi;colon.txt",
      "%41.txt",
      "cr\r\nlf.txt",
      "Ünïcödé.txt",
      "😀 emoji.txt",
    ];
    for (const name of names) {
      const key = `${crypto.randomUUID()}-x`;
      await env.R2_BUCKET.put(key, "x", { customMetadata: { originalName: name } });
      const header = (await request(downloadPath(key))).headers.get("Content-Disposition")!;
      const parsed = parseDisposition(header);
      expect(parsed.type).toBe("attachment");
      expect(parsed.parameters.filename, header).toBe(name.replace(/[\r\n]/g, ""));
      expect(header).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''/);
    }
  });

  it("D7: answers 304 with an empty body for the current ETag, `*` and a weak tag", async () => {
    for (const value of [`"${stored.etag}"`, "*", `W/"${stored.etag}"`, `"other", "${stored.etag}"`]) {
      const res = await request(downloadPath(stored.key), { headers: { "If-None-Match": value } });
      expect(res.status, value).toBe(304);
      expect(await res.text()).toBe("");
    }
    const stale = await request(downloadPath(stored.key), { headers: { "If-None-Match": '"stale"' } });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(content);
  });

  it("D8: answers 206 with Content-Range and exact bytes", async () => {
    const cases: [string, string, string][] = [
      ["bytes=0-4", "hello", "bytes 0-4/11"],
      ["bytes=-5", "world", "bytes 6-10/11"],
      ["bytes=6-", "world", "bytes 6-10/11"],
      ["bytes=6-100", "world", "bytes 6-10/11"],
      ["bytes=-100", content, "bytes 0-10/11"],
    ];
    for (const [range, body, contentRange] of cases) {
      const res = await request(downloadPath(stored.key), { headers: { Range: range } });
      expect(res.status, range).toBe(206);
      expect(res.headers.get("Content-Range")).toBe(contentRange);
      expect(res.headers.get("Content-Length")).toBe(String(body.length));
      expect(await res.text()).toBe(body);
    }
  });

  it("D9: answers 416 with Content-Range bytes */size for an unsatisfiable range", async () => {
    for (const range of ["bytes=50-60", "bytes=11-", "bytes=-0"]) {
      const res = await api(downloadPath(stored.key), { headers: { Range: range } });
      expectError(res, 416, "Range not satisfiable");
      expect(res.headers.get("Content-Range")).toBe("bytes */11");
    }
  });

  it("D10: ignores several ranges and malformed ones (200 with the whole body)", async () => {
    for (const range of ["bytes=0-1,3-4", "bytes=a-b", "bytes=5-2", "items=0-1", "bytes=-"]) {
      const res = await request(downloadPath(stored.key), { headers: { Range: range } });
      expect(res.status, range).toBe(200);
      expect(await res.text()).toBe(content);
    }
  });

  it("needs no token but accepts one", async () => {
    const res = await request(downloadPath(stored.key), { token });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  });
});
