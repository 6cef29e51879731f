// Deleting a file takes it away at once; POST /api/files/{key}/restore brings the same file back.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { DeletedFileSchema, FileRecordSchema } from "../../src/routes/files/files.schemas";
import { signUp, type SignedUpUser } from "../helpers/auth";
import {
  createLink,
  deleteFile,
  fileRecordOf,
  getFile,
  linkPath,
  listFiles,
  recordsOf,
} from "../helpers/files";
import { api, expectData, expectError, readResult, request } from "../helpers/http";
import { fetchWithEnv } from "../helpers/storage";
import { attachedKeys, createTodo } from "../helpers/todos";
import { downloadPath, storeFile, storeText } from "../helpers/uploads";
import { runEverywhere } from "../helpers/shards";

const runCron = () => worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env);

const restorePath = (key: string) => `/api/files/${encodeURIComponent(key)}/restore`;
const restore = (user: SignedUpUser, key: string) =>
  api(restorePath(key), { method: "POST", token: user.token });

const removed = async (user: SignedUpUser, key: string, query = "") =>
  expectData(await deleteFile(user.token, key, query), 200, DeletedFileSchema);

/** Moves a deleted file's delete back in time, past any restore window. */
const ageDelete = (key: string) =>
  runEverywhere("UPDATE deleted_files_table SET deletedAt = '2000-01-01T00:00:00.000Z' WHERE key = ?", key);

describe("POST /api/files/{key}/restore", () => {
  it("deletes at once (record, usage, download, links), then restores the same file, bytes and links", async () => {
    const user = await signUp();
    const file = await storeText(user.token, "the report", "report.txt", "text/plain", "docs");
    const record = await fileRecordOf(user.token, file.key);
    const link = await createLink(user.token, file.key, { expiresIn: 3600, maxDownloads: 5 });
    expect((await request(linkPath(link.url))).status).toBe(200);

    const deleted = await removed(user, file.key);
    expect(deleted).toMatchObject({ key: file.key, detached: 0 });
    expect(Date.parse(deleted.restorableUntil) - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
    expectError(await api(downloadPath(file.key)), 404, "File not found");
    expect((await request(downloadPath(file.key), { method: "HEAD" })).status).toBe(404);
    expectError(await api(downloadPath(file.key), { headers: { Range: "bytes=0-3" } }), 404);
    expectError(await api(linkPath(link.url)), 404, "Link not found");
    expectError(await getFile(user.token, file.key), 404, "File not found");
    expect((await listFiles(user.token)).usage).toMatchObject({ bytes: 0, files: 0 });
    expect(await recordsOf(file.key)).toEqual({ files: 0, pending: 0 });
    // The bytes wait in R2 under the same key for the restore.
    expect(await env.R2_BUCKET.head(file.key)).not.toBeNull();

    const back = expectData(await restore(user, file.key), 200, FileRecordSchema);
    expect(back).toEqual(record);
    expect((await listFiles(user.token)).usage).toMatchObject({ bytes: 10, files: 1 });
    const download = await request(downloadPath(file.key));
    expect(download.status).toBe(200);
    expect(download.headers.get("ETag")).toBe(`"${file.etag}"`);
    expect(await download.text()).toBe("the report");
    // The same link works again, with its count kept.
    expect(await (await request(linkPath(link.url))).text()).toBe("the report");
    const links = (await api(`/api/files/${encodeURIComponent(file.key)}/links`, { token: user.token }))
      .body as {
      data: { items: { id: string; downloads: number }[] };
    };
    expect(links.data.items).toMatchObject([{ id: link.id, downloads: 2 }]);
  });

  it("a private file comes back private", async () => {
    const user = await signUp();
    const key = await storeFile(user.token, "secret", "secret.txt", "text/plain");
    await removed(user, key);
    expectError(await api(downloadPath(key), { token: user.token }), 404);
    expect(expectData(await restore(user, key), 200, FileRecordSchema).visibility).toBe("private");
    expect((await request(downloadPath(key))).status).toBe(404);
    expect(await (await request(downloadPath(key), { token: user.token })).text()).toBe("secret");
  });

  it("a second restore answers the file as it is; two at once restore it once", async () => {
    const user = await signUp();
    const file = await storeText(user.token, "twice", "twice.txt");
    await removed(user, file.key);
    const [first, second] = await Promise.all([restore(user, file.key), restore(user, file.key)]);
    expect(expectData(second, 200, FileRecordSchema)).toEqual(expectData(first, 200, FileRecordSchema));
    expect(expectData(await restore(user, file.key), 200, FileRecordSchema).size).toBe(5);
    expect((await listFiles(user.token)).usage).toMatchObject({ bytes: 5, files: 1 });
  });

  it("a deleted file cannot be attached to a todo (dropped like a missing key)", async () => {
    const user = await signUp();
    const file = await storeText(user.token, "away", "away.txt");
    await removed(user, file.key);
    const todo = await createTodo(user, { attachments: [{ fileKey: file.key }] });
    expect(todo.attachments).toEqual([]);
  });

  it("attachments a detach removed stay removed; the file itself comes back", async () => {
    const user = await signUp();
    const file = await storeText(user.token, "attached", "attached.txt");
    const todo = await createTodo(user, { attachments: [{ fileKey: file.key }] });
    expect((await removed(user, file.key, "detach=true")).detached).toBe(1);
    expectData(await restore(user, file.key), 200, FileRecordSchema);
    const read = await api(`/api/todos/${todo.id}`, { token: user.token });
    expect(attachedKeys((read.body as { data: Parameters<typeof attachedKeys>[0] }).data)).toEqual([]);
  });

  it("413 when the file no longer fits the quota; nothing is restored", async () => {
    const user = await signUp();
    const file = await storeText(user.token, "0123456789", "ten.txt");
    await removed(user, file.key);
    const res = await readResult(
      await fetchWithEnv(
        restorePath(file.key),
        { method: "POST", token: user.token },
        { STORAGE_QUOTA_BYTES: "9" },
      ),
    );
    expectError(
      res,
      413,
      /^Storage quota exceeded: the limit is 9 bytes, 0 are in use .* restoring this file needs 10 bytes$/,
    );
    expectError(await getFile(user.token, file.key), 404);
    expectData(await restore(user, file.key), 200, FileRecordSchema);
  });

  it("410 past the restore window; the cron then erases the object and the restore is 404", async () => {
    const user = await signUp();
    const file = await storeText(user.token, "old", "old.txt");
    await removed(user, file.key);
    await ageDelete(file.key);
    expectError(
      await restore(user, file.key),
      410,
      /^File can no longer be restored: it was deleted more than 86400 s ago$/,
    );
    await runCron();
    expect(await env.R2_BUCKET.head(file.key)).toBeNull();
    expectError(await restore(user, file.key), 404, "File not found");
    expectError(await api(downloadPath(file.key)), 404);
  });

  it("deleting the account erases its deleted files' objects too", async () => {
    const user = await signUp();
    const file = await storeText(user.token, "bye", "bye.txt");
    await removed(user, file.key);
    const res = await api(`/api/users/${user.userId}/delete`, { method: "POST", token: user.token });
    expect(res.status).toBe(200);
    expect(await env.R2_BUCKET.head(file.key)).toBeNull();
  });

  it("another user's deleted file is 404 and stays restorable by its owner; unknown keys are 404", async () => {
    const [alice, mallory] = await Promise.all([signUp(), signUp()]);
    const file = await storeText(alice.token, "hers", "hers.txt");
    await removed(alice, file.key);
    expectError(await restore(mallory, file.key), 404, "File not found");
    expectError(await restore(mallory, "no-such-key"), 404, "File not found");
    expectData(await restore(alice, file.key), 200, FileRecordSchema);
    expectError(await restore(mallory, file.key), 404, "File not found");
    expectError(await api(restorePath(file.key), { method: "POST" }), 401);
    expectError(await api(restorePath(file.key), { token: alice.token }), 404);
  });
});
