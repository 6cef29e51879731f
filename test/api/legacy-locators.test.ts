// Issue 42: keys, share-link tokens, upload ids and chat ids made before shards carry no owner. Once their
// workspace moves off the directory, the locators its move recorded find them in their new shard, and
// again after a second move; a made-up key still finds nothing, and the workspace's delete takes them.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { base64url } from "../../src/core/base64url";
import { derivedKey } from "../../src/core/derived-keys";
import { orgOwner, userOwner } from "../../src/core/owner";
import { ownerOfKey } from "../../src/files/file-keys";
import { newLinkId } from "../../src/files/link-tokens";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { getChat } from "../helpers/chats";
import { makeAdmin } from "../helpers/db";
import { createTeam } from "../helpers/orgs";
import { deleteFile, getFile } from "../helpers/files";
import { api, expectError } from "../helpers/http";
import { expectMoved, finishedMove, moveReaches, placeOn, rowCount, workspaceOf } from "../helpers/shards";
import { bytes } from "../helpers/storage";
import { downloadPath, finish, putPart } from "../helpers/uploads";

const PART_SIZE = 5 * 1024 * 1024;

/**
 * A file with a share link (the user's, public; or a team's, private), as made before shards on the
 * directory's tables: its key and the link's token.
 */
async function legacyFile(user: SignedUpUser, text: string, orgId: number | null = null) {
  const key = `${crypto.randomUUID()}-old.txt`;
  await env.R2_BUCKET.put(key, text, { customMetadata: { originalName: "old.txt" } });
  const file = await env.DB.prepare(
    "INSERT INTO files_table (key, userId, orgId, originalName, size, contentType, etag, visibility) VALUES (?, ?, ?, 'old.txt', ?, 'text/plain', 'e', ?) RETURNING id",
  )
    .bind(key, user.userId, orgId, text.length, orgId === null ? "public" : "private")
    .first<{ id: number }>();
  const linkId = newLinkId();
  await env.DB.prepare(
    "INSERT INTO file_links_table (id, fileId, expiresAt) VALUES (?, ?, '2999-01-01T00:00:00.000Z')",
  )
    .bind(linkId, file!.id)
    .run();
  const secret = await derivedKey(env.JWT_SECRET, "file-share-link/v1");
  const signature = await crypto.subtle.sign("HMAC", secret, new TextEncoder().encode(linkId));
  return { key, token: `${linkId}.${base64url(new Uint8Array(signature))}` };
}

/**
 * A file with a share link, a deleted file with its link (in the trash), a resumable upload and a chat,
 * made as before shards on the directory's tables.
 */
async function legacyRows(user: SignedUpUser) {
  const { key, token } = await legacyFile(user, "old");
  const binned = await legacyFile(user, "binned");
  expect((await deleteFile(user.token, binned.key)).status).toBe(200);
  const uploadId = crypto.randomUUID();
  const uploadKey = `${crypto.randomUUID()}-late.bin`;
  const multipart = await env.R2_BUCKET.createMultipartUpload(uploadKey, {
    customMetadata: { originalName: "late.bin" },
  });
  await env.DB.prepare(
    "INSERT INTO uploads_table (id, userId, key, r2UploadId, contentType, partSize, expiresAt) VALUES (?, ?, ?, ?, 'application/octet-stream', ?, '2999-01-01T00:00:00.000Z')",
  )
    .bind(uploadId, user.userId, uploadKey, multipart.uploadId, PART_SIZE)
    .run();
  // Its reservation, grown part by part (a size not declared).
  await env.DB.prepare(
    "INSERT INTO storage_reservations_table (id, userId, key, bytes, expiresAt) VALUES (?, ?, ?, 0, '2999-01-01T00:00:00.000Z')",
  )
    .bind(uploadId, user.userId, uploadKey)
    .run();
  const chatId = `chat_${base64url(crypto.getRandomValues(new Uint8Array(16)))}`;
  await env.DB.prepare("INSERT INTO chats_table (id, userId) VALUES (?, ?)").bind(chatId, user.userId).run();
  expect(ownerOfKey(key)).toBeNull();
  return { key, token, binned, uploadId, chatId };
}

async function move(boss: SignedUpUser, workspaceId: number, shard: string) {
  const started = await api(`/api/admin/workspaces/${workspaceId}/move`, {
    method: "POST",
    token: boss.token,
    json: { shard },
  });
  expect(started.status).toBe(202);
  expectMoved(await finishedMove(workspaceId));
}

async function expectFound(user: SignedUpUser, legacy: Awaited<ReturnType<typeof legacyRows>>) {
  const download = await api(downloadPath(legacy.key));
  expect([download.status, download.text]).toEqual([200, "old"]);
  expect((await getFile(user.token, legacy.key)).status).toBe(200);
  const shared = await api(`/api/links/${legacy.token}`);
  expect([shared.status, shared.text]).toEqual([200, "old"]);
  expect((await getChat(user, legacy.chatId)).id).toBe(legacy.chatId);
  const ticket = await api("/api/agents/tickets", {
    method: "POST",
    token: user.token,
    json: { agent: "chat-agent", name: legacy.chatId },
  });
  expect(ticket.status).toBe(201);
}

const locatorsOf = async (workspaceId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM legacy_locators_table WHERE workspaceId = ?")
    .bind(workspaceId)
    .first<{ n: number }>())!.n;

describe("keys, tokens and ids from before shards", () => {
  it("find their rows after their workspace moves off the directory, and after a second move; the account's delete takes the locators", async () => {
    const [boss, bob] = [await signUp(), await signUp()];
    await makeAdmin(boss.userId);
    await placeOn({ userId: bob.userId }, "DB");
    const legacy = await legacyRows(bob);
    const workspace = await workspaceOf(userOwner(bob.userId));

    await move(boss, workspace.id, "DB_SHARD_0");
    expect(await rowCount("DB", userOwner(bob.userId))).toBe(0);
    await expectFound(bob, legacy);
    // The deleted file is found in the trash it moved with, and comes back with its link.
    expectError(await api(downloadPath(legacy.binned.key)), 404);
    const restored = await api(`/api/files/${legacy.binned.key}/restore`, {
      method: "POST",
      token: bob.token,
    });
    expect(restored.status, restored.text).toBe(200);
    expect((await api(`/api/links/${legacy.binned.token}`)).text).toBe("binned");
    const part = await putPart(bob.token, legacy.uploadId, 1, bytes(3));
    expect(part.status, part.text).toBe(200);

    await move(boss, workspace.id, "DB_SHARD_1");
    await expectFound(bob, legacy);
    const done = await finish(bob.token, legacy.uploadId);
    expect(done.status).toBe(201);
    expect((await api(downloadPath((done.body as { data: { key: string } }).data.key))).text).toBe(
      new TextDecoder().decode(bytes(3)),
    );
    // A made-up key, upload id or chat id of the shapes from before shards finds nothing.
    expectError(await api(downloadPath(`${crypto.randomUUID()}-old.txt`)), 404);
    expectError(await getFile(bob.token, `${crypto.randomUUID()}-old.txt`), 404);
    expectError(await finish(bob.token, crypto.randomUUID()), 404);
    const madeUpChat = `chat_${base64url(crypto.getRandomValues(new Uint8Array(16)))}`;
    const refused = await api("/api/agents/tickets", {
      method: "POST",
      token: bob.token,
      json: { agent: "chat-agent", name: madeUpChat },
    });
    expect(refused.status).toBe(404);

    expect(await locatorsOf(workspace.id)).toBe(6);
    expect((await api(`/api/users/${bob.userId}/delete`, { method: "POST", token: bob.token })).status).toBe(
      200,
    );
    expect(await locatorsOf(workspace.id)).toBe(0);
  });

  it("are recorded before the rows they locate: a copy failing on the target leaves them, and the directory serves until the switch", async () => {
    const [boss, bob] = [await signUp(), await signUp()];
    await makeAdmin(boss.userId);
    await placeOn({ userId: bob.userId }, "DB");
    const legacy = await legacyRows(bob);
    const workspace = await workspaceOf(userOwner(bob.userId));
    // A real failure on the target: its files table refuses bob's rows until the trigger goes.
    const trigger = `test_${crypto.randomUUID().replaceAll("-", "")}`;
    const target = env.DB_SHARD_0;
    await target
      .prepare(
        `CREATE TRIGGER ${trigger} BEFORE INSERT ON files_table WHEN NEW.userId = ${bob.userId} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      )
      .run();
    try {
      const started = await api(`/api/admin/workspaces/${workspace.id}/move`, {
        method: "POST",
        token: boss.token,
        json: { shard: "DB_SHARD_0" },
      });
      expect(started.status).toBe(202);
      const failing = await moveReaches(workspace.id, (plan) => plan.lastError !== null);
      expect([failing.phase, failing.switchedAt]).toEqual(["copy", null]);
      const located = await env.DB.prepare(
        "SELECT workspaceId FROM legacy_locators_table WHERE kind = 'file' AND ref = ?",
      )
        .bind(legacy.key)
        .first<{ workspaceId: number }>();
      expect(located?.workspaceId).toBe(workspace.id);
      await expectFound(bob, legacy);
    } finally {
      await target.prepare(`DROP TRIGGER IF EXISTS ${trigger}`).run();
    }
    expectMoved(await finishedMove(workspace.id));
    await expectFound(bob, legacy);
  });

  it("of a team: found after its move, taken by the team's delete", async () => {
    const [boss, owner] = [await signUp(), await signUp()];
    await makeAdmin(boss.userId);
    const org = await createTeam(owner.token);
    await placeOn({ orgId: org.id }, "DB");
    const legacy = await legacyFile(owner, "team's", org.id);
    const workspace = await workspaceOf(orgOwner(org.id));
    await move(boss, workspace.id, "DB_SHARD_1");
    const download = await api(downloadPath(legacy.key), { token: owner.token });
    expect([download.status, download.text]).toEqual([200, "team's"]);
    expect((await api(`/api/links/${legacy.token}`)).text).toBe("team's");
    expect(await locatorsOf(workspace.id)).toBe(2);
    expect((await api(`/api/orgs/${org.id}/delete`, { method: "POST", token: owner.token })).status).toBe(
      200,
    );
    expect(await locatorsOf(workspace.id)).toBe(0);
    expectError(await api(`/api/links/${legacy.token}`), 404);
  });
});
