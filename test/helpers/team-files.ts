import { UploadResultSchema } from "../../src/routes/files/files.schemas";
import { api, expectData, readResult, type ApiResult } from "./http";
import { fetchWithEnv } from "./storage";

/** A form with `orgId` (unless undefined) before `file`, as curl -F and FormData send fields in order. */
export function teamForm(orgId: number | string | undefined, text: string, filename = "notes.txt") {
  const form = new FormData();
  if (orgId !== undefined) form.append("orgId", String(orgId));
  form.append("file", new Blob([text], { type: "text/plain" }), filename);
  return form;
}

/** POST /api/upload of `text` for team `orgId` (the form field, or `?orgId=` with `via: "query"`). */
export function uploadToTeam(
  token: string,
  orgId: number,
  text = "team notes",
  via: "form" | "query" = "form",
) {
  const path = via === "query" ? `/api/upload?orgId=${orgId}` : "/api/upload";
  return api(path, { method: "POST", token, body: teamForm(via === "form" ? orgId : undefined, text) });
}

/** uploadToTeam() that must succeed: the new file's key. */
export async function teamFileKey(token: string, orgId: number, text = "team notes") {
  return expectData(await uploadToTeam(token, orgId, text), 201, UploadResultSchema).key;
}

/** A request with the personal and team quotas replaced. */
export async function withQuotas(
  quotas: { user?: number; org?: number },
  path: string,
  init: RequestInit & { token: string },
): Promise<ApiResult> {
  const overrides: Partial<Env> = {};
  if (quotas.user !== undefined) overrides.STORAGE_QUOTA_BYTES = String(quotas.user);
  if (quotas.org !== undefined) overrides.ORG_STORAGE_QUOTA_BYTES = String(quotas.org);
  return readResult(await fetchWithEnv(path, init, overrides));
}
