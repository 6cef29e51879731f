import { maxUploadBytes } from "../../core/config";
import { created } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AppRouteHandler } from "../../http/types";
import { ifNoneMatchHits, parseRange, resolveRange } from "../../http/conditional-requests";
import { contentDisposition, fileNameFromKey, isStorableKey } from "../../files/file-keys";
import { callStorage } from "../../files/storage-errors";
import { storeUpload } from "../../files/form-upload";
import type { DownloadRoute, UploadRoute } from "./files.routes";

export const upload: AppRouteHandler<UploadRoute> = async (c) => {
  const result = await storeUpload(c.env.R2_BUCKET, c.req.raw, { maxBytes: maxUploadBytes(c.env) });
  c.get("logger").info("upload_stored", { key: result.key, size: result.size });
  return created(c, result);
};

const notFound = () => new ApiError(404, "File not found");

function objectHeaders(object: R2Object): Headers {
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
  });
  headers.set("Content-Length", String(object.size));
  return headers;
}

/**
 * Plain GETs cost one R2 call. HEAD, ranges and If-None-Match first read the metadata: the
 * status depends on the size and ETag, and local R2 answers an unsatisfiable range with the
 * whole object. Keys are never overwritten (a fresh UUID per upload), so nothing changes between
 * the two calls.
 */
export const download: AppRouteHandler<DownloadRoute> = async (c) => {
  const { key } = c.req.valid("param");
  // R2 throws (10020) on keys over 1,024 bytes; such a key cannot exist, so it is simply not found.
  if (!isStorableKey(key)) throw notFound();
  const bucket = c.env.R2_BUCKET;
  const range = parseRange(c.req.header("Range"));
  const ifNoneMatch = c.req.header("If-None-Match");
  const isHead = c.req.method === "HEAD";

  // c.body(), not new Response(): the answer then carries the headers middleware prepared (X-Request-Id).
  if (!isHead && !range && !ifNoneMatch) {
    const object = await callStorage("get", () => bucket.get(key));
    if (!object) throw notFound();
    return c.body(object.body, { status: 200, headers: objectHeaders(object) });
  }

  const meta = await callStorage("head", () => bucket.head(key));
  if (!meta) throw notFound();
  const headers = objectHeaders(meta);
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
  if (!object) throw notFound();
  return c.body(object.body, { status, headers });
};
