import { freshToken, SESSION_ENDED_NOTICE } from "../auth/refresh";
import { signOut } from "../auth/session";
import { API_ORIGIN } from "../config";
import { BOOKMARK_HEADER, currentBookmark, rememberBookmark } from "./bookmark";
import { ApiError, apiError } from "./client";
import { uploadResumable } from "./resumable-upload";
import type { paths } from "./schema";

export type UploadResult =
  paths["/api/upload"]["post"]["responses"][201]["content"]["application/json"]["data"];

export interface UploadOptions {
  /** Optional key prefix such as `reports/2026`. */
  directory?: string;
  /** `private`: only you (with your token) or a share link download it. Public when omitted. */
  visibility?: "public" | "private";
  /** The team the file is for (private to its members, on its quota); yours when omitted. */
  orgId?: number;
  /** 0..1 as the request body goes out. */
  onProgress?: (fraction: number) => void;
  /** A large file's part failed for lack of a connection (or a brief service fault) and will be resent. */
  onRetry?: (error: ApiError) => void;
  signal?: AbortSignal;
}

/** Files above this go through the resumable API (a part per request), smaller ones in one request. */
export const RESUMABLE_FROM_BYTES = 8 * 1024 * 1024;

/** Stores a file: one multipart request when small, the resumable upload API when large. */
export function uploadFile(file: File, options: UploadOptions = {}): Promise<UploadResult> {
  return file.size > RESUMABLE_FROM_BYTES
    ? uploadResumable(file, options)
    : uploadInOneRequest(file, options);
}

/**
 * POST /api/upload as multipart/form-data. XMLHttpRequest rather than fetch: only XHR reports
 * upload progress. The browser writes the multipart boundary; setting Content-Type by hand breaks it.
 */
async function uploadInOneRequest(file: File, options: UploadOptions): Promise<UploadResult> {
  const token = await freshToken();
  const form = new FormData();
  // Fields before `file`: the service then stores the file as it streams, with no copy afterwards.
  if (options.directory) form.append("directory", options.directory);
  if (options.visibility) form.append("visibility", options.visibility);
  if (options.orgId !== undefined) form.append("orgId", String(options.orgId));
  form.append("file", file);

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${API_ORIGIN}/api/upload`);
    xhr.responseType = "json";
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    const bookmark = currentBookmark();
    if (bookmark) xhr.setRequestHeader(BOOKMARK_HEADER, bookmark);

    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    });
    xhr.addEventListener("load", () => {
      rememberBookmark(xhr.getResponseHeader(BOOKMARK_HEADER));
      const body = xhr.response as { success?: boolean; data?: UploadResult } | null;
      if (xhr.status === 201 && body?.data) {
        options.onProgress?.(1);
        resolve(body.data);
        return;
      }
      if (xhr.status === 401 && token) signOut(SESSION_ENDED_NOTICE);
      reject(apiError(body, xhr.status));
    });
    xhr.addEventListener("error", () => reject(new ApiError(`Cannot reach the service at ${API_ORIGIN}`, 0)));
    xhr.addEventListener("abort", () => reject(new DOMException("Upload cancelled", "AbortError")));
    options.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
