// docs/security.md F1-F5: your files only, delete, keyset paging while uploads happen, cursors.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { awaitEvent, openFeed } from "../helpers/feed";
import { api, expectData, expectError, request } from "../helpers/http";
import {
  allFileKeys,
  deleteFile,
  fileRecordOf,
  getFile,
  listFiles,
  recordsOf,
  usageRow,
} from "../helpers/files";
import { snapshotState, stateDiff } from "../helpers/state";
import { bytes } from "../helpers/storage";
import { createTodo, storedKey } from "../helpers/todos";
import { downloadPath, finish, putPart, startUpload, storeText } from "../helpers/uploads";
import { DeletedFileSchema } from "../../src/routes/files/files.schemas";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";

const b64 = (text: string) => btoa(text).replaceAll("=", "");

describe("GET /api/files", () => {
  it("records single and resumable uploads, lists them newest first with the usage", async () => {
    const user = await signUp();
    const single = await storeText(user.token, "hello", "héllo wörld.txt", "text/plain", "docs");
    const session = await startUpload(user.token, {
      fileName: "clip.mp4",
      contentType: "video/mp4",
      size: 12,
    });
    expect((await putPart(user.token, session.uploadId, 1, bytes(12))).status).toBe(200);
    expect((await finish(user.token, session.uploadId)).status).toBe(201);

    const page = await listFiles(user.token);
    expect(page.items).toEqual([
      {
        key: session.key,
        originalName: "clip.mp4",
        size: 12,
        contentType: "video/mp4",
        etag: expect.any(String),
        visibility: "public",
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        orgId: null,
      },
      {
        key: single.key,
        originalName: "héllo wörld.txt",
        size: 5,
        contentType: "text/plain",
        etag: single.etag,
        visibility: "public",
        createdAt: expect.any(String),
        orgId: null,
      },
    ]);
    expect(page.nextCursor).toBeNull();
    expect(page.usage).toEqual({ bytes: 17, files: 2, reservedBytes: 0, quotaBytes: 1024 ** 3 });
    expect(await usageRow(user.userId)).toEqual({ bytes: 17, files: 2 });
  });

  it("F4: pages by cursor with no file skipped or repeated while uploads happen between pages", async () => {
    const user = await signUp();
    const before: string[] = [];
    for (let i = 0; i < 7; i++) before.push((await storeText(user.token, `f${i}`, `f${i}.txt`)).key);
    const first = await listFiles(user.token, "limit=3");
    expect(first.items.map((f) => f.key)).toEqual(before.slice(4).toReversed());

    // Two uploads land between the pages (an offset would now repeat two files), three race the next page.
    for (const i of [0, 1]) await storeText(user.token, `new${i}`, `new${i}.txt`);
    const [second] = await Promise.all([
      listFiles(user.token, `limit=3&cursor=${first.nextCursor}`),
      ...[2, 3, 4].map((i) => storeText(user.token, `new${i}`, `new${i}.txt`)),
    ]);
    const third = await listFiles(user.token, `limit=3&cursor=${second.nextCursor}`);
    expect(third.nextCursor).toBeNull();
    const paged = [...first.items, ...second.items, ...third.items].map((f) => f.key);
    expect(paged).toEqual(before.toReversed());

    // The new ones are at the head of a fresh listing, once each.
    const fresh = await allFileKeys(user.token, 2);
    expect(fresh).toHaveLength(12);
    expect(new Set(fresh).size).toBe(12);
    expect(fresh.slice(5)).toEqual(before.toReversed());
  });

  it("lists only your own files", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const mine = await storeText(alice.token, "a", "a.txt");
    await storeText(bob.token, "b", "b.txt");
    expect((await listFiles(alice.token)).items.map((f) => f.key)).toEqual([mine.key]);
  });

  it("F5: bad cursors and limits are 400 in the envelope", async () => {
    const { token } = await signUp();
    for (const query of [
      "cursor=",
      "cursor=abc",
      "cursor=%00",
      `cursor=${b64("k0")}`,
      `cursor=${b64("k-1")}`,
      `cursor=${b64("k1e3")}`,
      `cursor=${b64("k99999999999999999")}`,
      `cursor=${b64("page2")}`,
      `cursor=${"A".repeat(1000)}`,
      "limit=0",
      "limit=101",
      "limit=-1",
      "limit=x",
      "limit=1.5",
    ]) {
      expectError(await api(`/api/files?${query}`, { token }), 400, /^Invalid query: (cursor|limit)/);
    }
  });
});

describe("GET /api/files/{key}", () => {
  it("F1: answers the owner's record; another user's, an unknown or an oversized key is 404 File not found", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const file = await storeText(alice.token, "x", "x.txt", "text/plain", "a/b");
    expect(await fileRecordOf(alice.token, file.key)).toMatchObject({ key: file.key, originalName: "x.txt" });
    for (const key of [file.key, `${file.key}x`, "k".repeat(2000)]) {
      expectError(await getFile(bob.token, key), 404, "File not found");
    }
    expectError(await getFile(alice.token, "no-such-key"), 404, "File not found");
  });

  it("leaves uploads from before files were recorded alone: downloadable, unlisted, uncounted, not yours to delete", async () => {
    const user = await signUp();
    const legacy = await storedKey("legacy.txt");
    expect((await request(downloadPath(legacy))).status).toBe(200);
    expect((await listFiles(user.token)).items).toEqual([]);
    expect((await listFiles(user.token)).usage.bytes).toBe(0);
    expectError(await getFile(user.token, legacy), 404);
    expectError(await deleteFile(user.token, legacy), 404);
    expect(await env.R2_BUCKET.head(legacy)).not.toBeNull();
  });
});

describe("POST /api/files/{key}/delete", () => {
  it("F3: removes its record at once (the object waits for a restore); the download is then 404 File not found and the usage drops", async () => {
    const user = await signUp();
    const keep = await storeText(user.token, "keep", "keep.txt");
    const gone = await storeText(user.token, "gone!", "gone.txt", "text/plain", "dir");
    const res = await deleteFile(user.token, gone.key);
    expect(expectData(res, 200, DeletedFileSchema)).toMatchObject({ key: gone.key, detached: 0 });
    // Kept under its key for POST /api/files/{key}/restore (test/api/files-restore.test.ts), downloadable by nobody.
    expect(await env.R2_BUCKET.head(gone.key)).not.toBeNull();
    expect(await recordsOf(gone.key)).toEqual({ files: 0, pending: 0 });
    expectError(await api(downloadPath(gone.key)), 404, "File not found");
    expectError(await getFile(user.token, gone.key), 404);
    expectError(await deleteFile(user.token, gone.key), 404, "File not found");
    expect((await listFiles(user.token)).usage).toMatchObject({ bytes: 4, files: 1 });
    expect((await request(downloadPath(keep.key))).status).toBe(200);
  });

  it("F2: answers 409 naming the todos a file is attached to, changing nothing; ?detach=true removes them too", async () => {
    const [owner, other] = await Promise.all([signUp(), signUp()]);
    const file = await storeText(owner.token, "shared", "shared.txt");
    const mine = await createTodo(owner, { attachments: [{ fileKey: file.key }] });
    // Keys are capabilities: another user may attach it (docs/security.md A8).
    const theirs = await createTodo(other, { attachments: [{ fileKey: file.key }] });
    const before = await snapshotState();

    const refused = expectError(await deleteFile(owner.token, file.key), 409);
    expect(refused.message).toBe(
      `File is attached to your todo ${mine.id} and 1 todo of other users: ` +
        "delete with ?detach=true to remove it from them too",
    );
    expectError(await deleteFile(owner.token, file.key, "detach=false"), 409);
    expect(stateDiff(before, await snapshotState())).toBeNull();

    const feeds = await Promise.all([openFeed(owner), openFeed(other)]);
    const res = await deleteFile(owner.token, file.key, "detach=true");
    expect(expectData(res, 200, DeletedFileSchema)).toMatchObject({ key: file.key, detached: 2 });
    expectError(await api(downloadPath(file.key)), 404, "File not found");
    // Losing an attachment is a write of each todo: its version rises and its owner's feed hears it (C12).
    const pairs = [
      [owner, mine],
      [other, theirs],
    ] as const;
    for (const [i, [user, todo]] of pairs.entries()) {
      const read = await api(`/api/todos/${todo.id}`, { token: user.token });
      expect(expectData(read, 200, TodoWithAttachmentsSchema)).toMatchObject({ attachments: [], version: 2 });
      await awaitEvent(feeds[i]!, { type: "todo.updated", id: todo.id, version: 2 }, performance.now());
      feeds[i]!.close();
    }
  });

  it("F1: another user's file is 404 File not found and stays whole; bad ?detach is 400", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const file = await storeText(alice.token, "mine", "mine.txt");
    const before = await snapshotState();
    expectError(await deleteFile(bob.token, file.key), 404, "File not found");
    expectError(await deleteFile(bob.token, file.key, "detach=true"), 404, "File not found");
    for (const detach of ["yes", "1", "TRUE", ""]) {
      expectError(await deleteFile(alice.token, file.key, `detach=${detach}`), 400, /^Invalid query: detach/);
    }
    expectError(await api(`/api/files/${encodeURIComponent(file.key)}/delete`, { token: alice.token }), 404);
    expect(stateDiff(before, await snapshotState())).toBeNull();
    expect(await (await request(downloadPath(file.key))).text()).toBe("mine");
  });

  it("T4: deleting a todo or clearing its attachments still removes no object", async () => {
    const user = await signUp();
    const file = await storeText(user.token, "kept", "kept.txt");
    const todo = await createTodo(user, { attachments: [{ fileKey: file.key }] });
    await api(`/api/todos/${todo.id}`, { method: "POST", token: user.token, json: { attachments: [] } });
    await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: user.token });
    expect(await env.R2_BUCKET.head(file.key)).not.toBeNull();
    expect(await recordsOf(file.key)).toEqual({ files: 1, pending: 0 });
  });
});
