import { parse as parseDisposition } from "content-disposition";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { api, expectError, request } from "../helpers/http";
import { bytes } from "../helpers/storage";
import { downloadPath, storeText } from "../helpers/uploads";

let token: string;
beforeAll(async () => {
  ({ token } = await signUp());
});

/** Uploads `text` as a file and returns the documented result. */
const uploadText = (text: string, filename: string, type = "text/plain", directory?: string) =>
  storeText(token, text, filename, type, directory);

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
