import { env } from "cloudflare:workers";
import { api, type ApiResult, expectData, readResult } from "./http";
import { fetchWithEnv } from "./storage";
import { UploadSessionSchema } from "../../src/routes/uploads/uploads.schemas";
import { UploadResultSchema } from "../../src/routes/files/files.schemas";
import { allDataDbs, firstRowAnywhere } from "./shards";

export const MiB = 1024 * 1024;

export interface UploadSession {
  uploadId: string;
  key: string;
  partSize: number;
  expiresAt: string;
}

/** POST /api/uploads; throws unless 201. */
export async function startUpload(token: string, body: Record<string, unknown>): Promise<UploadSession> {
  const res = await api("/api/uploads", { method: "POST", token, json: body });
  return expectData(res, 201, UploadSessionSchema);
}

/** startUpload() with some env values replaced (a quota of another size). */
export async function startUploadWith(token: string, body: Record<string, unknown>, overrides: Partial<Env>) {
  const res = await fetchWithEnv(
    "/api/uploads",
    { method: "POST", token, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
    overrides,
  );
  return expectData(await readResult(res), 201, UploadSessionSchema);
}

export function putPart(token: string, uploadId: string, partNumber: number | string, body: BodyInit | null) {
  return api(`/api/uploads/${uploadId}/parts/${partNumber}`, {
    method: "PUT",
    token,
    body,
    headers: { "Content-Type": "application/octet-stream" },
  });
}

export function finish(
  token: string,
  uploadId: string,
  action: "complete" | "abort" = "complete",
): Promise<ApiResult> {
  return api(`/api/uploads/${uploadId}/${action}`, { method: "POST", token });
}

/** The D1 rows an upload holds: its own and its parts'. */
export async function uploadRows(uploadId: string): Promise<number> {
  let n = 0;
  for (const db of allDataDbs()) {
    const row = await db
      .prepare(
        "SELECT (SELECT COUNT(*) FROM uploads_table WHERE id = ?1) + (SELECT COUNT(*) FROM upload_parts_table WHERE uploadId = ?1) AS n",
      )
      .bind(uploadId)
      .first<{ n: number }>();
    n += row?.n ?? 0;
  }
  return n;
}

/** R2's id of the multipart upload behind one of ours (read before it is aborted or completed). */
export async function r2UploadIdOf(uploadId: string): Promise<string> {
  const row = await firstRowAnywhere<{ r2UploadId: string }>(
    "SELECT r2UploadId FROM uploads_table WHERE id = ?",
    uploadId,
  );
  if (!row) throw new Error(`no upload row ${uploadId}`);
  return row.r2UploadId;
}

/** Whether R2 still accepts parts for that multipart upload; use only where it should be gone. */
export async function multipartAccepts(key: string, r2UploadId: string): Promise<boolean> {
  try {
    await env.R2_BUCKET.resumeMultipartUpload(key, r2UploadId).uploadPart(1, "probe");
    return true;
  } catch {
    return false;
  }
}

/** A form with `file` (a Blob under `filename`, or a plain text field) and an optional `directory`. */
export function uploadForm(file: Blob | string | undefined, filename = "hello.txt", directory?: string) {
  const data = new FormData();
  if (directory !== undefined) data.append("directory", directory);
  if (file instanceof Blob) data.append("file", file, filename);
  else if (file !== undefined) data.append("file", file);
  return data;
}

/** POST /api/upload with a FormData, or raw bytes under `contentType`. */
export function sendUpload(token: string, body: BodyInit, contentType?: string) {
  return api("/api/upload", {
    method: "POST",
    token,
    body,
    headers: contentType ? { "Content-Type": contentType } : undefined,
  });
}

/** Uploads `text` as a file and returns the documented result. */
export async function storeText(
  token: string,
  text: string,
  filename: string,
  type = "text/plain",
  directory?: string,
) {
  const res = await sendUpload(token, uploadForm(new Blob([text], { type }), filename, directory));
  return expectData(res, 201, UploadResultSchema);
}

/** Uploads `body` as `filename` with a visibility (private by default); its key. */
export async function storeFile(
  token: string,
  body: string | Uint8Array,
  filename: string,
  type: string,
  visibility: "public" | "private" = "private",
) {
  const form = new FormData();
  form.append("visibility", visibility);
  form.append("file", new Blob([body], { type }), filename);
  return expectData(await sendUpload(token, form), 201, UploadResultSchema).key;
}

/** The public download path of `key` (one path segment: its `/` is sent as %2F). */
export const downloadPath = (key: string) => `/api/download/${encodeURIComponent(key)}`;
