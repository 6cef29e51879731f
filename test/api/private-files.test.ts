// docs/security.md P1-P3: private uploads download only with their owner's token or a share link.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { createKey } from "../helpers/credentials";
import { api, expectData, expectError, request } from "../helpers/http";
import { createLink, deleteFile, fileRecordOf, linkPath } from "../helpers/files";
import { multipartBody } from "../helpers/multipart";
import { snapshotState, stateDiff } from "../helpers/state";
import { bytes, fetchWithEnv, recordingBucket, sha256 } from "../helpers/storage";
import { downloadPath, finish, putPart, sendUpload, startUpload } from "../helpers/uploads";
import { UploadResultSchema } from "../../src/routes/files/files.schemas";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";

async function privateUpload(user: SignedUpUser, text: string, visibilityFirst = true) {
  const visibility = { name: "visibility", body: "private" };
  const file = { name: "file", filename: "secret.txt", contentType: "text/plain", body: text };
  const form = multipartBody(visibilityFirst ? [visibility, file] : [file, visibility]);
  return expectData(await sendUpload(user.token, form.body, form.contentType), 201, UploadResultSchema);
}

describe("private uploads", () => {
  it("P1: download with the owner's token only; anyone else, any bad token, finds nothing", async () => {
    const [owner, other] = await Promise.all([signUp(), signUp()]);
    const file = await privateUpload(owner, "for my eyes");
    expect(Object.keys(file).toSorted()).toEqual(["contentType", "etag", "key", "size"]);
    expect((await fileRecordOf(owner.token, file.key)).visibility).toBe("private");
    expect((await env.R2_BUCKET.head(file.key))?.customMetadata).toEqual({
      originalName: "secret.txt",
      visibility: "private",
      owner: String(owner.userId),
    });

    for (const headers of [
      {} as Record<string, string>,
      { Authorization: `Bearer ${other.token}` },
      { Authorization: "Bearer not.a.token" },
      { Authorization: `Basic ${owner.token}` },
    ]) {
      for (const extra of [{}, { Range: "bytes=0-2" }, { "If-None-Match": "*" }] as Record<
        string,
        string
      >[]) {
        expectError(
          await api(downloadPath(file.key), { headers: { ...headers, ...extra } }),
          404,
          "File not found",
        );
      }
      expect((await request(downloadPath(file.key), { method: "HEAD", headers })).status).toBe(404);
    }

    const mine = await request(downloadPath(file.key), { token: owner.token });
    expect(mine.status).toBe(200);
    expect(await mine.text()).toBe("for my eyes");
    const part = await request(downloadPath(file.key), {
      token: owner.token,
      headers: { Range: "bytes=4-5" },
    });
    expect([part.status, await part.text()]).toEqual([206, "my"]);
  });

  it("P1: an API key of the owner downloads it only with files:read", async () => {
    const owner = await signUp();
    const file = await privateUpload(owner, "for my scripts");
    const [reader, writer] = await Promise.all([
      createKey(owner.token, ["files:read"]),
      createKey(owner.token, ["files:write", "todos:read"]),
    ]);
    expectError(await api(downloadPath(file.key), { token: writer.key }), 404, "File not found");
    const read = await request(downloadPath(file.key), { token: reader.key });
    expect([read.status, await read.text()]).toEqual([200, "for my scripts"]);
  });

  it("P4: another user's private file cannot be attached (not found, no size or MD5); its owner deletes it plainly", async () => {
    const [owner, other] = await Promise.all([signUp(), signUp()]);
    const file = await privateUpload(owner, "not yours");
    const created = await api("/api/todos", {
      method: "POST",
      token: other.token,
      json: { title: "grab", attachments: [{ fileKey: file.key }] },
    });
    const todo = expectData(created, 201, TodoWithAttachmentsSchema);
    expect(todo.attachments).toEqual([]);
    const updated = await api(`/api/todos/${todo.id}`, {
      method: "POST",
      token: other.token,
      json: { attachments: [{ fileKey: file.key }] },
    });
    expect(expectData(updated, 200, TodoWithAttachmentsSchema).attachments).toEqual([]);
    // The owner attaches their own private file.
    const mine = await api("/api/todos", {
      method: "POST",
      token: owner.token,
      json: { title: "mine", attachments: [{ fileKey: file.key }] },
    });
    expect(expectData(mine, 201, TodoWithAttachmentsSchema).attachments).toHaveLength(1);
    expect((await deleteFile(owner.token, file.key, "detach=true")).status).toBe(200);
  });

  it("P2: a share link opens a private file for anyone holding it", async () => {
    const owner = await signUp();
    const file = await privateUpload(owner, "shared secret");
    const link = await createLink(owner.token, file.key, { expiresIn: 600 });
    const res = await request(linkPath(link.url));
    expect([res.status, await res.text()]).toEqual([200, "shared secret"]);
  });

  it("P2: resumable uploads take `visibility` too", async () => {
    const [owner, other] = await Promise.all([signUp(), signUp()]);
    const session = await startUpload(owner.token, { fileName: "p.bin", size: 8, visibility: "private" });
    expect((await putPart(owner.token, session.uploadId, 1, bytes(8))).status).toBe(200);
    expect((await finish(owner.token, session.uploadId)).status).toBe(201);
    expect((await fileRecordOf(owner.token, session.key)).visibility).toBe("private");
    expectError(await api(downloadPath(session.key), { token: other.token }), 404);
    expect((await request(downloadPath(session.key), { token: owner.token })).status).toBe(200);
    expectError(
      await api("/api/uploads", {
        method: "POST",
        token: owner.token,
        json: { fileName: "x", visibility: "secret" },
      }),
      400,
    );
  });

  it("P3: a late `visibility` after a file of several parts moves it once, under a new UUID", async () => {
    const owner = await signUp();
    const content = bytes(9 * 1024 * 1024, 5);
    const form = multipartBody([
      { name: "file", filename: "big.bin", contentType: "application/octet-stream", body: content },
      { name: "visibility", body: "private" },
    ]);
    const { bucket, opened } = recordingBucket();
    const res = await fetchWithEnv(
      "/api/upload",
      { method: "POST", token: owner.token, body: form.body, headers: { "Content-Type": form.contentType } },
      { R2_BUCKET: bucket },
    );
    expect(res.status).toBe(201);
    const { key } = ((await res.json()) as { data: { key: string } }).data;
    expect(opened).toHaveLength(1);
    expect(opened[0]).not.toBe(key);
    expect(await env.R2_BUCKET.head(opened[0]!)).toBeNull();
    expect((await env.R2_BUCKET.head(key))?.customMetadata?.visibility).toBe("private");
    const mine = await request(downloadPath(key), { token: owner.token });
    expect(await sha256(await mine.arrayBuffer())).toBe(await sha256(content));
    expectError(await api(downloadPath(key)), 404);
  });

  it("P3: a small file with `visibility` after it is private too; bad values are 400 and store nothing", async () => {
    const owner = await signUp();
    const late = await privateUpload(owner, "late", false);
    expectError(await api(downloadPath(late.key)), 404);
    const before = await snapshotState();
    for (const parts of [
      [{ name: "visibility", body: "secret" }],
      [{ name: "visibility", body: "PRIVATE" }],
      [
        { name: "visibility", body: "private" },
        { name: "visibility", body: "public" },
      ],
    ]) {
      const form = multipartBody([...parts, { name: "file", filename: "f.txt", body: "x" }]);
      expectError(await sendUpload(owner.token, form.body, form.contentType), 400, /^Invalid visibility/);
    }
    expect(stateDiff(before, await snapshotState())).toBeNull();
    // An empty value is the default, as an empty `directory` is none.
    const form = multipartBody([
      { name: "visibility", body: "" },
      { name: "file", filename: "p.txt", body: "x" },
    ]);
    const open = expectData(
      await sendUpload(owner.token, form.body, form.contentType),
      201,
      UploadResultSchema,
    );
    expect((await request(downloadPath(open.key))).status).toBe(200);
  });
});
