import { env } from "cloudflare:workers";
import { FileLinkSchema } from "../../src/routes/file-links/file-links.schemas";
import { FilePageSchema, FileRecordSchema } from "../../src/routes/files/files.schemas";
import { api, expectData, type ApiInit } from "./http";
import { allDataDbs, dataDb } from "./shards";

const segment = encodeURIComponent;

/** GET /api/files with an optional query string; the documented page. */
export async function listFiles(token: string, query = "") {
  return expectData(await api(`/api/files${query ? `?${query}` : ""}`, { token }), 200, FilePageSchema);
}

/** Every file of the user, page by page (limit per page), following nextCursor. */
export async function allFileKeys(token: string, limit = 100): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await listFiles(token, `limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    keys.push(...page.items.map((item) => item.key));
    cursor = page.nextCursor;
  } while (cursor);
  return keys;
}

export const getFile = (token: string, key: string) => api(`/api/files/${segment(key)}`, { token });

export const fileRecordOf = async (token: string, key: string) =>
  expectData(await getFile(token, key), 200, FileRecordSchema);

export const deleteFile = (token: string, key: string, query = "") =>
  api(`/api/files/${segment(key)}/delete${query ? `?${query}` : ""}`, { method: "POST", token });

export const linksPath = (key: string) => `/api/files/${segment(key)}/links`;

export const postLink = (token: string, key: string, json: unknown, init: ApiInit = {}) =>
  api(linksPath(key), { method: "POST", token, json, ...init });

/** POST /api/files/{key}/links; the documented link. */
export async function createLink(
  token: string,
  key: string,
  body: Record<string, unknown> = { expiresIn: 3600 },
) {
  return expectData(await postLink(token, key, body), 201, FileLinkSchema);
}

/** The path of a link's public URL (the origin is the test's). */
export const linkPath = (url: string) => new URL(url).pathname;

/** Every key in the bucket with the given prefix (all of them without one). */
export async function bucketKeys(prefix?: string): Promise<Set<string>> {
  const keys = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await env.R2_BUCKET.list({ prefix, cursor, limit: 1000 });
    for (const object of page.objects) keys.add(object.key);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/** The file records and pending erasures of every data database, counted, for a key. */
export async function recordsOf(key: string) {
  const counts = { files: 0, pending: 0 };
  for (const db of allDataDbs()) {
    const row = await db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM files_table WHERE key = ?1) AS files,
          (SELECT COUNT(*) FROM pending_erasures_table WHERE key = ?1) AS pending`,
      )
      .bind(key)
      .first<{ files: number; pending: number }>();
    counts.files += row!.files;
    counts.pending += row!.pending;
  }
  return counts;
}

/** The user's usage row as the triggers keep it (null once they have no files). */
export async function usageRow(userId: number) {
  return (await dataDb({ userId }))
    .prepare("SELECT bytes, files FROM storage_usage_table WHERE userId = ?")
    .bind(userId)
    .first<{ bytes: number; files: number }>();
}
