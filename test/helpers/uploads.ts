import { env } from "cloudflare:workers";
import { api, type ApiResult } from "./http";

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
  if (res.status !== 201) throw new Error(`start failed: ${res.status} ${res.text}`);
  return res.body.data;
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
): Promise<ApiResult<any>> {
  return api(`/api/uploads/${uploadId}/${action}`, { method: "POST", token });
}

/** The D1 rows an upload holds: its own and its parts'. */
export async function uploadRows(uploadId: string): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT (SELECT COUNT(*) FROM uploads_table WHERE id = ?1) + (SELECT COUNT(*) FROM upload_parts_table WHERE uploadId = ?1) AS n",
  )
    .bind(uploadId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** R2's id of the multipart upload behind one of ours (read before it is aborted or completed). */
export async function r2UploadIdOf(uploadId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT r2UploadId FROM uploads_table WHERE id = ?")
    .bind(uploadId)
    .first<{ r2UploadId: string }>();
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
