// docs/security.md X1-X4: deleting a user erases every object they stored, in the request or by the cron.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { createDb } from "../../src/db/client";
import { sweepErasures } from "../../src/files/erasure";
import { sweepAgentWipes, WIPE_IN_REQUEST } from "../../src/chats/agent-wipes";
import { newChatId } from "../../src/chats/chat-ids";
import { DeletedUserSchema } from "../../src/routes/users/users.schemas";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { sendTurn, turnOutcome } from "../helpers/agents";
import { chatStorage, createChat, openChat, WIPED } from "../helpers/chats";
import { injected, withFaults } from "../helpers/faults";
import { api, expectData, expectError, request } from "../helpers/http";
import { allFileKeys, bucketKeys, createLink, linkPath } from "../helpers/files";
import { multipartBody } from "../helpers/multipart";
import { bytes, fetchWithEnv } from "../helpers/storage";
import { createTodo } from "../helpers/todos";
import { countEverywhere, dataDb, onShardOf } from "../helpers/shards";
import {
  downloadPath,
  finish,
  multipartAccepts,
  putPart,
  r2UploadIdOf,
  sendUpload,
  startUpload,
  storeText,
} from "../helpers/uploads";

const runCron = () => worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env);

const deleteUser = (user: SignedUpUser) =>
  api(`/api/users/${user.userId}/delete`, { method: "POST", token: user.token });

// Rows queued in every data database (each test drains what it queued).
const queuedWipes = () => countEverywhere("SELECT COUNT(*) AS n FROM pending_agent_wipes_table");

/** A chat of `user` with one answered turn: its id. */
async function answeredChat(user: SignedUpUser): Promise<string> {
  const chat = await createChat(user);
  const socket = await openChat(user, chat.id);
  sendTurn(socket, "t1", "Remember this");
  expect((await turnOutcome(socket, "t1")).error).toBeUndefined();
  socket.close();
  return chat.id;
}

const queued = () => countEverywhere("SELECT COUNT(*) AS n FROM pending_erasures_table");

/** `count` uploads under `dir`, a few at a time. */
async function uploadMany(user: SignedUpUser, dir: string, count: number) {
  for (let i = 0; i < count; i += 15) {
    const batch = Array.from({ length: Math.min(15, count - i) }, (_, j) =>
      storeText(user.token, `file ${i + j}`, `f${i + j}.txt`, "text/plain", dir),
    );
    await Promise.all(batch);
  }
}

describe("erasure on user delete", () => {
  it("X1: a user with few objects: every key under their name is gone from R2 when the delete answers", async () => {
    const [user, other] = await Promise.all([signUp(), signUp()]);
    const dir = `erase-${crypto.randomUUID()}`;
    const open = await storeText(user.token, "public", "public.txt", "text/plain", dir);
    const hidden = multipartBody([
      { name: "directory", body: dir },
      { name: "visibility", body: "private" },
      { name: "file", filename: "private.txt", body: "private" },
    ]);
    expect((await sendUpload(user.token, hidden.body, hidden.contentType)).status).toBe(201);
    const done = await startUpload(user.token, { fileName: "done.bin", directory: dir, size: 4 });
    await putPart(user.token, done.uploadId, 1, bytes(4));
    expect((await finish(user.token, done.uploadId)).status).toBe(201);
    const unfinished = await startUpload(user.token, { fileName: "half.bin", directory: dir, size: 10 });
    await putPart(user.token, unfinished.uploadId, 1, bytes(10));
    const r2UploadId = await r2UploadIdOf(unfinished.uploadId);
    // Attached to someone else's todo and shared by a link: erased all the same.
    await createTodo(other, { attachments: [{ fileKey: open.key }] });
    const link = await createLink(user.token, open.key);
    const theirs = await storeText(other.token, "stays", "stays.txt", "text/plain", dir);

    expect(await allFileKeys(user.token)).toHaveLength(3);
    expect(await bucketKeys(dir)).toHaveProperty("size", 4);
    const res = await deleteUser(user);
    expect(expectData(res, 200, DeletedUserSchema)).toEqual({
      id: user.userId,
      erasure: { objects: 4, pending: false, agents: { instances: 2, pending: false } },
    });
    expect([...(await bucketKeys(dir))]).toEqual([theirs.key]);
    expect(await multipartAccepts(unfinished.key, r2UploadId)).toBe(false);
    expect(await queued()).toBe(0);
    expectError(await api(downloadPath(open.key)), 404, "File not found");
    expectError(await api(linkPath(link.url)), 404);
  });

  it("X2: a user with more than 100 objects: queued by the delete, erased by the cron; a second run finds nothing", async () => {
    const user = await signUp();
    const dir = `sweep-${crypto.randomUUID()}`;
    await uploadMany(user, dir, 104);
    const unfinished = await startUpload(user.token, { fileName: "half.bin", directory: dir, size: 10 });
    await putPart(user.token, unfinished.uploadId, 1, bytes(10));
    const r2UploadId = await r2UploadIdOf(unfinished.uploadId);
    expect((await bucketKeys(dir)).size).toBe(104);

    const res = await deleteUser(user);
    expect(expectData(res, 200, DeletedUserSchema).erasure).toEqual({
      objects: 105,
      pending: true,
      agents: { instances: 2, pending: false },
    });
    expect((await bucketKeys(dir)).size).toBe(104);
    expect(await queued()).toBe(105);

    await runCron();
    expect((await bucketKeys(dir)).size).toBe(0);
    expect(await multipartAccepts(unfinished.key, r2UploadId)).toBe(false);
    expect(await queued()).toBe(0);
    await runCron();
    expect(await queued()).toBe(0);
  });

  it("X3: the sweep is resumable: an R2 failure keeps everything queued, bounded runs pick up where the last stopped", async () => {
    const user = await signUp();
    const dir = `resume-${crypto.randomUUID()}`;
    await uploadMany(user, dir, 101);
    const db = createDb(await dataDb({ userId: user.userId }));
    expect(expectData(await deleteUser(user), 200, DeletedUserSchema).erasure.pending).toBe(true);

    const failing = withFaults(env.R2_BUCKET, { delete: () => injected("R2 delete") });
    await expect(sweepErasures(failing, db)).rejects.toThrow(/injected/);
    expect(await queued()).toBe(101);
    expect((await bucketKeys(dir)).size).toBe(101);

    expect(await sweepErasures(env.R2_BUCKET, db, { batchSize: 40, maxBatches: 1 })).toBe(40);
    expect(await queued()).toBe(61);
    expect((await bucketKeys(dir)).size).toBe(61);
    expect(await sweepErasures(env.R2_BUCKET, db, { batchSize: 40, maxBatches: 5 })).toBe(61);
    expect((await bucketKeys(dir)).size).toBe(0);
    expect(await queued()).toBe(0);
  });

  it("X4: when R2 fails during the delete, the user is gone and the cron erases their objects later", async () => {
    const user = await signUp();
    const file = await storeText(user.token, "later", "later.txt");
    const failing = withFaults(env.R2_BUCKET, { delete: () => injected("R2 delete") });
    const res = await fetchWithEnv(
      `/api/users/${user.userId}/delete`,
      { method: "POST", token: user.token },
      { R2_BUCKET: failing },
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({
      id: user.userId,
      erasure: { objects: 1, pending: true, agents: { instances: 2, pending: false } },
    });
    expect((await request(downloadPath(file.key))).status).toBe(200);
    await runCron();
    expect(await env.R2_BUCKET.head(file.key)).toBeNull();
  });

  it("X4: an upload that finishes while its user is deleted leaves no object", async () => {
    const user = await signUp();
    const dir = `race-${crypto.randomUUID()}`;
    // The account is deleted between the upload's put and its record.
    let deleted = false;
    // The record's batch runs in the user's data database.
    const shard = await onShardOf({ userId: user.userId }, (db) =>
      withFaults(db, {
        batch: async (statements: D1PreparedStatement[]) => {
          if (!deleted) {
            deleted = true;
            expect((await deleteUser(user)).status).toBe(200);
          }
          return db.batch(statements);
        },
      }),
    );
    const form = multipartBody([
      { name: "directory", body: dir },
      { name: "file", filename: "late.txt", body: "late" },
    ]);
    const res = await fetchWithEnv(
      "/api/upload",
      { method: "POST", token: user.token, body: form.body, headers: { "Content-Type": form.contentType } },
      shard,
    );
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      "User no longer exists",
    );
    expect((await bucketKeys(dir)).size).toBe(0);
    expect(await queued()).toBe(0);
  });

  it("X5: a user with more chats than a request wipes: queued by the delete, wiped by the cron, resumably", async () => {
    const user = await signUp();
    const kept = await answeredChat(user);
    // More index rows than the request wipes (their instances were never opened: a wipe finds them empty).
    const seeded = Array.from({ length: WIPE_IN_REQUEST }, () => newChatId(user.userId));
    const shard = await dataDb({ userId: user.userId });
    await shard.batch(
      seeded.map((id) =>
        shard.prepare("INSERT INTO chats_table (id, userId) VALUES (?, ?)").bind(id, user.userId),
      ),
    );
    const instances = WIPE_IN_REQUEST + 3; // the chats, `user-<id>` and the todo feed
    expect(expectData(await deleteUser(user), 200, DeletedUserSchema).erasure.agents).toEqual({
      instances,
      pending: true,
    });
    expect((await chatStorage(kept)).rows).toMatchObject({ cf_agents_session_messages: 2 });
    expect(await queuedWipes()).toBe(instances);

    const db = createDb(shard);
    // Each wipe ends in the instance's intended reset: an info line says so, nothing at warn or error.
    const lines: [string, string, Record<string, unknown> | undefined][] = [];
    const record = (level: string) => (event: string, fields?: Record<string, unknown>) => {
      lines.push([level, event, fields]);
    };
    const logger = {
      debug: record("debug"),
      info: record("info"),
      warn: record("warn"),
      error: record("error"),
    };
    expect(await sweepAgentWipes(env, db, logger, { batchSize: 10, maxBatches: 1 })).toBe(10);
    expect(lines).toEqual([["info", "agent_wiped", { count: 10 }]]);
    expect(await queuedWipes()).toBe(instances - 10);
    await runCron();
    expect(await queuedWipes()).toBe(0);
    expect(await chatStorage(kept)).toEqual(WIPED);
    expect(await sweepAgentWipes(env, db)).toBe(0);
  });

  it("X6: a wipe that fails during the delete stays queued; the cron wipes it later", async () => {
    const user = await signUp();
    const chat = await answeredChat(user);
    const ChatAgent = withFaults(env.ChatAgent, {
      getByName: (name: string) =>
        name === chat ? ({ wipe: () => injected("wipe") } as never) : env.ChatAgent.getByName(name),
    });
    const res = await fetchWithEnv(
      `/api/users/${user.userId}/delete`,
      { method: "POST", token: user.token },
      { ChatAgent },
    );
    expect(((await res.json()) as { data: { erasure: unknown } }).data.erasure).toEqual({
      objects: 0,
      pending: false,
      agents: { instances: 3, pending: true },
    });
    expect(await queuedWipes()).toBe(1);
    expect((await chatStorage(chat)).rows).toMatchObject({ cf_agents_session_messages: 2 });
    await runCron();
    expect(await queuedWipes()).toBe(0);
    expect(await chatStorage(chat)).toEqual(WIPED);
  });
});
