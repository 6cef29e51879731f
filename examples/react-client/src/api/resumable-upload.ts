import { freshToken } from "../auth/refresh";
import { API_ORIGIN } from "../config";
import { BOOKMARK_HEADER, currentBookmark, rememberBookmark } from "./bookmark";
import { api, ApiError, apiError, unwrap } from "./client";
import type { UploadOptions, UploadResult } from "./upload";

/** Gives up after this long without any part getting through (the connection stays down). */
const OFFLINE_PATIENCE_MS = 5 * 60_000;
const MAX_RETRY_DELAY_MS = 5_000;

interface Session {
  uploadId: string;
  partSize: number;
}

/** What a retry could fix: no answer at all (network down), or the service or R2 briefly failing. */
const isTransient = (err: unknown) =>
  err instanceof ApiError && (err.status === 0 || err.status === 429 || err.status >= 500);

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new DOMException("Upload cancelled", "AbortError"));
      },
      { once: true },
    );
  });
}

/** One part as raw bytes, by XHR for its upload progress (fetch reports none). */
async function putPart(
  session: Session,
  partNumber: number,
  body: Blob,
  onSent: (bytes: number) => void,
  signal?: AbortSignal,
) {
  // Parts of a large file go on for longer than a token lives.
  const token = await freshToken();
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", `${API_ORIGIN}/api/uploads/${session.uploadId}/parts/${partNumber}`);
    xhr.responseType = "json";
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    const bookmark = currentBookmark();
    if (bookmark) xhr.setRequestHeader(BOOKMARK_HEADER, bookmark);
    xhr.upload.addEventListener("progress", (event) => onSent(event.loaded));
    xhr.addEventListener("load", () => {
      rememberBookmark(xhr.getResponseHeader(BOOKMARK_HEADER));
      if (xhr.status === 200) resolve();
      else reject(apiError(xhr.response, xhr.status));
    });
    xhr.addEventListener("error", () => reject(new ApiError(`Cannot reach the service at ${API_ORIGIN}`, 0)));
    xhr.addEventListener("abort", () => reject(new DOMException("Upload cancelled", "AbortError")));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/**
 * Sends a large file through the resumable upload API: one request per part, so a dropped
 * connection costs at most one part. A part that fails for lack of a network (or a 5xx/429) is
 * sent again with growing pauses until the connection is back; parts already stored are not
 * resent. Cancelling aborts the upload on the service, leaving nothing behind.
 */
export async function uploadResumable(file: File, options: UploadOptions = {}): Promise<UploadResult> {
  const session = await unwrap(
    api.POST("/api/uploads", {
      body: {
        fileName: file.name,
        size: file.size,
        ...(file.type ? { contentType: file.type } : {}),
        ...(options.directory ? { directory: options.directory } : {}),
        ...(options.visibility ? { visibility: options.visibility } : {}),
        ...(options.orgId !== undefined ? { orgId: options.orgId } : {}),
      },
    }),
  );
  try {
    const parts = Math.max(1, Math.ceil(file.size / session.partSize));
    let stored = 0;
    for (let partNumber = 1; partNumber <= parts; partNumber++) {
      const body = file.slice((partNumber - 1) * session.partSize, partNumber * session.partSize);
      let delay = 500;
      let lastSuccess = Date.now();
      for (;;) {
        try {
          await putPart(
            session,
            partNumber,
            body,
            (sent) => options.onProgress?.((stored + sent) / file.size),
            options.signal,
          );
          break;
        } catch (err) {
          if (!isTransient(err) || Date.now() - lastSuccess > OFFLINE_PATIENCE_MS) throw err;
          options.onRetry?.(err as ApiError);
          await wait(delay, options.signal);
          delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
        }
      }
      stored += body.size;
      lastSuccess = Date.now();
      options.onProgress?.(stored / file.size);
    }
    return await unwrap(
      api.POST("/api/uploads/{uploadId}/complete", { params: { path: { uploadId: session.uploadId } } }),
    );
  } catch (err) {
    // Nothing half-written stays behind; if even this fails, the service expires the upload.
    void api
      .POST("/api/uploads/{uploadId}/abort", { params: { path: { uploadId: session.uploadId } } })
      .catch(() => {});
    throw err;
  }
}
