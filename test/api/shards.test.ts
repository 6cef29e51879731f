// Issue 42: workspaces spread over the data databases. A user's and a team's data live in the shard their
// workspace row names, every route finds them there with one directory read, a workspace still on the
// directory (legacy) is served from the directory's own tables, and erasure reaches the right shard.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AuditPageSchema } from "../../src/routes/audit/audit.schemas";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";
import { signUp } from "../helpers/auth";
import { makeAdmin } from "../helpers/db";
import { withFaults } from "../helpers/faults";
import { api, expectData, expectError } from "../helpers/http";
import { createTeam } from "../helpers/orgs";
import { dataDb, placeOn, shardOf } from "../helpers/shards";
import { bytes, fetchWithEnv } from "../helpers/storage";
import { createTodo, pageOf } from "../helpers/todos";
import { base64url } from "../../src/core/base64url";
import { derivedKey } from "../../src/core/derived-keys";
import { orgOwner, userOwner } from "../../src/core/owner";
import { ownerOfKey } from "../../src/files/file-keys";
import { newLinkId } from "../../src/files/link-tokens";
import { FilePageSchema } from "../../src/routes/files/files.schemas";
import { createChat, getChat } from "../helpers/chats";
import { createLink, deleteFile, getFile, linkPath } from "../helpers/files";
import { teamFileKey } from "../helpers/team-files";
import { downloadPath, finish, putPart, startUpload, storeText } from "../helpers/uploads";

const SHARDS = ["DB_SHARD_0", "DB_SHARD_1"];

/** How many rows of `table` in `db` have `column` = `value`. */
async function rowIn(db: D1Database, table: string, column: string, value: string): Promise<number> {
  const row = await db
    .prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`)
    .bind(value)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function todoIn(db: D1Database, id: number) {
  return db.prepare("SELECT id, userId, orgId, title FROM todos_table WHERE id = ?").bind(id).first();
}

/** The directory as the app sees it, counting round trips: each batch, and each statement run on its own. */
function countingDirectory() {
  let roundTrips = 0;
  const real = new WeakMap<object, D1PreparedStatement>();
  const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => counted(target.bind(...values));
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (["all", "first", "run", "raw"].includes(String(prop))) roundTrips++;
        return value.bind(target);
      },
    });
    real.set(proxy, statement);
    return proxy;
  };
  const directory = withFaults(env.DB, {
    prepare: (query: string) => counted(env.DB.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => {
      roundTrips++;
      return env.DB.batch(statements.map((s) => real.get(s) ?? s));
    },
  });
  return { directory, roundTrips: () => roundTrips };
}

describe("shards: workspaces in their data databases", () => {
  it("places new users and teams on a DB_SHARD_*, and every todo route finds each workspace's rows there", async () => {
    const ada = await signUp();
    const team = await createTeam(ada.token);
    const own = await shardOf({ userId: ada.userId });
    expect(SHARDS).toContain(own);
    // The team on the other shard, so one request reaches two data databases.
    const other = SHARDS.find((shard) => shard !== own)!;
    await placeOn({ orgId: team.id }, other);

    const mine = await createTodo(ada, { title: "mine" });
    const ours = await createTodo(ada, { title: "ours", orgId: team.id });
    expect(await todoIn(await dataDb({ userId: ada.userId }), mine.id)).toMatchObject({ title: "mine" });
    expect(await todoIn(env[other as "DB_SHARD_0"], ours.id)).toMatchObject({
      title: "ours",
      orgId: team.id,
    });
    expect(await todoIn(env[own as "DB_SHARD_0"], ours.id)).toBeNull();
    // Ids never meet across databases: each shard hands out its own range.
    expect(mine.id).not.toBe(ours.id);

    for (const todo of [mine, ours]) {
      const read = await api(`/api/todos/${todo.id}`, { token: ada.token });
      expect(expectData(read, 200, TodoWithAttachmentsSchema).title).toBe(todo.title);
      const changed = await api(`/api/todos/${todo.id}`, {
        method: "POST",
        token: ada.token,
        json: { completed: true },
      });
      expect(expectData(changed, 200, TodoWithAttachmentsSchema).completed).toBe(true);
    }
    expect(pageOf(await api("/api/todos", { token: ada.token })).items.map((t) => t.id)).toEqual([mine.id]);
    const teamPage = pageOf(await api(`/api/todos?orgId=${team.id}`, { token: ada.token }));
    expect(teamPage.items.map((t) => t.id)).toEqual([ours.id]);
    const audit = expectData(
      await api(`/api/orgs/${team.id}/audit?action=todo.updated`, { token: ada.token }),
      200,
      AuditPageSchema,
    );
    expect(audit.items.map((entry) => [entry.target, entry.actorUsername])).toEqual([
      [`todo-${ours.id}`, ada.username],
    ]);
    // The team's todo deleted through its shard, the personal one stays.
    expect((await api(`/api/todos/${ours.id}/delete`, { method: "POST", token: ada.token })).status).toBe(
      200,
    );
    expect(await todoIn(env[other as "DB_SHARD_0"], ours.id)).toBeNull();
    expectError(await api(`/api/todos/${ours.id}`, { token: ada.token }), 404, "Todo not found");
  });

  it("serves a workspace still on the directory (legacy) from the directory's own tables", async () => {
    const bob = await signUp();
    await placeOn({ userId: bob.userId }, "DB");
    const todo = await createTodo(bob, { title: "legacy" });
    expect(await todoIn(env.DB, todo.id)).toMatchObject({ title: "legacy", userId: bob.userId });
    for (const shard of SHARDS) expect(await todoIn(env[shard as "DB_SHARD_0"], todo.id)).toBeNull();
    const read = await api(`/api/todos/${todo.id}`, { token: bob.token });
    expect(expectData(read, 200, TodoWithAttachmentsSchema).title).toBe("legacy");
    // An admin's read of another user's todos reads that user's shard, here the directory.
    const admin = await signUp();
    await makeAdmin(admin.userId);
    const listed = pageOf(await api(`/api/users/${bob.userId}/todos`, { token: admin.token }));
    expect(listed.items.map((t) => t.id)).toEqual([todo.id]);
  });

  it("finds a todo's workspace with one directory round trip", async () => {
    const cy = await signUp();
    const team = await createTeam(cy.token);
    const todo = await createTodo(cy, { title: "counted", orgId: team.id });
    // The gate's user lookup is remembered for a moment: a first read warms it, as a client's requests do.
    await api(`/api/todos/${todo.id}`, { token: cy.token });
    const { directory, roundTrips } = countingDirectory();
    const res = await fetchWithEnv(`/api/todos/${todo.id}`, { token: cy.token }, { DB: directory });
    expect(res.status).toBe(200);
    expect(roundTrips()).toBe(1);
  });

  it("erases a deleted user's workspace in its shard, and a deleted team's in its own", async () => {
    const dee = await signUp();
    const team = await createTeam(dee.token);
    const own = (await shardOf({ userId: dee.userId }))!;
    const other = SHARDS.find((shard) => shard !== own)!;
    await placeOn({ orgId: team.id }, other);
    const mine = await createTodo(dee, { title: "mine" });
    const ours = await createTodo(dee, { title: "ours", orgId: team.id });
    const teamGone = await api(`/api/orgs/${team.id}/delete`, { method: "POST", token: dee.token });
    expect(teamGone.status).toBe(200);
    expect(await todoIn(env[other as "DB_SHARD_0"], ours.id)).toBeNull();
    expect(await todoIn(env[own as "DB_SHARD_0"], mine.id)).not.toBeNull();
    const userGone = await api(`/api/users/${dee.userId}/delete`, { method: "POST", token: dee.token });
    expect(userGone.status).toBe(200);
    expect(await todoIn(env[own as "DB_SHARD_0"], mine.id)).toBeNull();
    const changes = await env[own as "DB_SHARD_0"]
      .prepare("SELECT count(*) AS n FROM todo_changes_table WHERE userId = ?")
      .bind(dee.userId)
      .first<{ n: number }>();
    expect(changes?.n).toBe(0);
  });

  it("keeps files, uploads, share links and chats in their workspace's shard, and finds each from its key, id or token", async () => {
    const ada = await signUp();
    const team = await createTeam(ada.token);
    const own = (await shardOf({ userId: ada.userId }))!;
    const other = SHARDS.find((shard) => shard !== own)!;
    await placeOn({ orgId: team.id }, other);
    const ownDb = env[own as "DB_SHARD_0"];
    const teamDb = env[other as "DB_SHARD_0"];

    const mine = await storeText(ada.token, "mine", "m.txt");
    const ours = await teamFileKey(ada.token, team.id, "ours");
    // Each key's UUID names its owner: no lookup tells where the record is.
    expect(ownerOfKey(mine.key)).toEqual(userOwner(ada.userId));
    expect(ownerOfKey(ours)).toEqual(orgOwner(team.id));
    expect(await rowIn(ownDb, "files_table", "key", mine.key)).toBe(1);
    expect(await rowIn(teamDb, "files_table", "key", ours)).toBe(1);
    for (const db of [env.DB, teamDb]) expect(await rowIn(db, "files_table", "key", mine.key)).toBe(0);
    for (const db of [env.DB, ownDb]) expect(await rowIn(db, "files_table", "key", ours)).toBe(0);

    for (const key of [mine.key, ours]) expect((await getFile(ada.token, key)).status).toBe(200);
    const teamFiles = expectData(
      await api(`/api/files?orgId=${team.id}`, { token: ada.token }),
      200,
      FilePageSchema,
    );
    expect(teamFiles.items.map((f) => f.key)).toEqual([ours]);
    expect(teamFiles.usage).toMatchObject({ files: 1, bytes: 4 });
    const download = await api(downloadPath(mine.key));
    expect([download.status, download.text]).toEqual([200, "mine"]);
    const teamDownload = await api(downloadPath(ours), { token: ada.token });
    expect([teamDownload.status, teamDownload.text]).toEqual([200, "ours"]);

    const link = await createLink(ada.token, ours);
    expect(await rowIn(teamDb, "file_links_table", "id", link.id)).toBe(1);
    const shared = await api(linkPath(link.url));
    expect([shared.status, shared.text]).toEqual([200, "ours"]);

    const draft = await startUpload(ada.token, { fileName: "r.bin", orgId: team.id, size: 3 });
    expect(ownerOfKey(draft.key)).toEqual(orgOwner(team.id));
    expect(await rowIn(teamDb, "uploads_table", "id", draft.uploadId)).toBe(1);
    expect((await putPart(ada.token, draft.uploadId, 1, bytes(3))).status).toBe(200);
    expect((await finish(ada.token, draft.uploadId)).status).toBe(201);
    expect(await rowIn(teamDb, "files_table", "key", draft.key)).toBe(1);

    // A delete and a restore go through the trash of the team's shard.
    expect((await deleteFile(ada.token, ours)).status).toBe(200);
    expect(await rowIn(teamDb, "deleted_files_table", "key", ours)).toBe(1);
    expectError(await api(downloadPath(ours), { token: ada.token }), 404, "File not found");
    const restored = await api(`/api/files/${encodeURIComponent(ours)}/restore`, {
      method: "POST",
      token: ada.token,
    });
    expect(restored.status).toBe(200);

    const chat = await createChat(ada);
    expect(chat.id.startsWith(`chat_${ada.userId}_`)).toBe(true);
    expect(await rowIn(ownDb, "chats_table", "id", chat.id)).toBe(1);
    expect((await getChat(ada, chat.id)).id).toBe(chat.id);
    const ticket = await api("/api/agents/tickets", {
      method: "POST",
      token: ada.token,
      json: { agent: "chat-agent", name: chat.id },
    });
    expect(ticket.status).toBe(201);
    // Another user's chat id is not found: the id names its owner, whose row says whose it is.
    const eve = await signUp();
    const refused = await api("/api/agents/tickets", {
      method: "POST",
      token: eve.token,
      json: { agent: "chat-agent", name: chat.id },
    });
    expect(refused.status).toBe(404);
  });

  it("finds a legacy workspace's files, links and chats on the directory, including keys, tokens and ids from before shards", async () => {
    const bob = await signUp();
    await placeOn({ userId: bob.userId }, "DB");
    const made = await storeText(bob.token, "legacy", "l.txt");
    expect(await rowIn(env.DB, "files_table", "key", made.key)).toBe(1);
    const link = await createLink(bob.token, made.key);
    expect(await rowIn(env.DB, "file_links_table", "id", link.id)).toBe(1);
    expect((await api(linkPath(link.url))).text).toBe("legacy");
    const chat = await createChat(bob);
    expect(await rowIn(env.DB, "chats_table", "id", chat.id)).toBe(1);

    // A key, a link token and a chat id as they were made before shards: they name no owner.
    const oldKey = `${crypto.randomUUID()}-old.txt`;
    await env.R2_BUCKET.put(oldKey, "old", { customMetadata: { originalName: "old.txt" } });
    const file = await env.DB.prepare(
      "INSERT INTO files_table (key, userId, originalName, size, contentType, etag, visibility) VALUES (?, ?, 'old.txt', 3, 'text/plain', 'e', 'public') RETURNING id",
    )
      .bind(oldKey, bob.userId)
      .first<{ id: number }>();
    expect(ownerOfKey(oldKey)).toBeNull();
    expect((await getFile(bob.token, oldKey)).status).toBe(200);
    const linkId = newLinkId();
    await env.DB.prepare(
      "INSERT INTO file_links_table (id, fileId, expiresAt) VALUES (?, ?, '2999-01-01T00:00:00.000Z')",
    )
      .bind(linkId, file!.id)
      .run();
    const key = await derivedKey(env.JWT_SECRET, "file-share-link/v1");
    const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(linkId));
    const oldToken = `${linkId}.${base64url(new Uint8Array(signature))}`;
    const viaOld = await api(`/api/links/${oldToken}`);
    expect([viaOld.status, viaOld.text]).toEqual([200, "old"]);
    const oldChat = `chat_${base64url(crypto.getRandomValues(new Uint8Array(16)))}`;
    await env.DB.prepare("INSERT INTO chats_table (id, userId) VALUES (?, ?)")
      .bind(oldChat, bob.userId)
      .run();
    expect((await getChat(bob, oldChat)).id).toBe(oldChat);
    const ticket = await api("/api/agents/tickets", {
      method: "POST",
      token: bob.token,
      json: { agent: "chat-agent", name: oldChat },
    });
    expect(ticket.status).toBe(201);
  });
});
