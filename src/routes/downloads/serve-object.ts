import type { Context } from "hono";
import { ApiError } from "../../http/errors";
import { ifNoneMatchHits, parseRange, resolveRange } from "../../http/conditional-requests";
import type { AppEnv } from "../../http/types";
import { contentDisposition, fileNameFromKey } from "../../files/file-keys";
import { callStorage } from "../../files/storage-errors";

export const fileNotFound = () => new ApiError(404, "File not found");

/** Who may read an object, decided from its metadata; a refusal is answered as if it did not exist. */
export type ReadCheck = (object: R2Object) => boolean | Promise<boolean>;

function objectHeaders(object: R2Object, extra: Record<string, string>): Headers {
  const headers = new Headers({
    // The stored type, as it was uploaded: attachment, nosniff and the CSP sandbox keep any type inert.
    "Content-Type": object.httpMetadata?.contentType || "application/octet-stream",
    "Content-Disposition": contentDisposition(
      object.customMetadata?.originalName ?? fileNameFromKey(object.key),
    ),
    ETag: object.httpEtag,
    "Last-Modified": object.uploaded.toUTCString(),
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
    ...extra,
  });
  headers.set("Content-Length", String(object.size));
  return headers;
}

/**
 * Answers a GET or HEAD for the object under `key`: the whole body, one `Range` (206, or 416 past
 * the end) or 304 for a matching `If-None-Match`. Plain GETs cost one R2 call. HEAD, ranges and
 * If-None-Match first read the metadata: the status depends on the size and ETag, and local R2
 * answers an unsatisfiable range with the whole object. Keys are never overwritten (a fresh UUID per
 * upload), so nothing changes between the two calls.
 */
export async function serveObject(
  c: Context<AppEnv>,
  key: string,
  mayRead: ReadCheck,
  extraHeaders: Record<string, string> = {},
) {
  const bucket = c.env.R2_BUCKET;
  const range = parseRange(c.req.header("Range"));
  const ifNoneMatch = c.req.header("If-None-Match");
  const isHead = c.req.method === "HEAD";

  // c.body(), not new Response(): the answer then carries the headers middleware prepared (X-Request-Id).
  if (!isHead && !range && !ifNoneMatch) {
    const object = await callStorage("get", () => bucket.get(key));
    if (!object) throw fileNotFound();
    if (!(await mayRead(object))) {
      await object.body.cancel();
      throw fileNotFound();
    }
    return c.body(object.body, { status: 200, headers: objectHeaders(object, extraHeaders) });
  }

  const meta = await callStorage("head", () => bucket.head(key));
  if (!meta || !(await mayRead(meta))) throw fileNotFound();
  const headers = objectHeaders(meta, extraHeaders);
  if (ifNoneMatchHits(ifNoneMatch, meta.httpEtag)) {
    return c.body(null, { status: 304, headers: { ETag: meta.httpEtag } });
  }
  const resolved = range ? resolveRange(range, meta.size) : undefined;
  if (resolved === null) {
    throw new ApiError(416, "Range not satisfiable", undefined, { "Content-Range": `bytes */${meta.size}` });
  }
  if (resolved) {
    headers.set(
      "Content-Range",
      `bytes ${resolved.offset}-${resolved.offset + resolved.length - 1}/${meta.size}`,
    );
    headers.set("Content-Length", String(resolved.length));
  }
  const status = resolved ? 206 : 200;
  if (isHead) return c.body(null, { status, headers });
  const object = await callStorage("get", () => bucket.get(key, resolved ? { range: resolved } : undefined));
  if (!object) throw fileNotFound();
  return c.body(object.body, { status, headers });
}
