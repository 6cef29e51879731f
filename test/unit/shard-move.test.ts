import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { userOwner } from "../../src/core/owner";
import * as dataSchema from "../../src/db/data-schema";
import { MOVED_TABLES } from "../../src/shards/moved-tables";
import { signUp } from "../helpers/auth";
import { createLink } from "../helpers/files";
import { api } from "../helpers/http";
import {
  expectMoved,
  finishedMove,
  moveReaches,
  moverOf,
  placeOn,
  rowCount,
  workspaceOf,
  workspaceRows,
} from "../helpers/shards";
import { shardBinding } from "../../src/db/shard-names";
import { createTodo, storedKey } from "../helpers/todos";
import { storeFile } from "../helpers/uploads";

/**
 * A user with todos (one with an attachment, one completed, one deleted), a file with a share link and a
 * note, on `shard` (the legacy directory by default: a workspace made before shards).
 */
async function userWithData(shard = "DB") {
  const user = await signUp();
  const owner = userOwner(user.userId);
  await placeOn({ userId: user.userId }, shard);
  const first = await createTodo(user, { title: "first", attachments: [{ fileKey: await storedKey() }] });
  const second = await createTodo(user, { title: "second" });
  await api(`/api/todos/${second.id}`, { method: "POST", token: user.token, json: { completed: true } });
  const third = await createTodo(user, { title: "third" });
  await api(`/api/todos/${third.id}`, { method: "DELETE", token: user.token });
  const key = await storeFile(user.token, "bytes", "a.txt", "text/plain");
  await createLink(user.token, key);
  await api("/api/notes", { method: "POST", token: user.token, json: { text: "a note" } });
  return { user, owner, todos: [first, second, third], key };
}

describe("moving a workspace between data databases", () => {
  it("moves a workspace made before shards out of the directory, rows and ids unchanged", async () => {
    const { owner } = await userWithData();
    const workspace = await workspaceOf(owner);
    const source = workspace.shard;
    expect(source).toBe("DB");
    const target = source === "DB_SHARD_0" ? "DB_SHARD_1" : "DB_SHARD_0";
    const before = await workspaceRows(source, owner);
    expect(before.todos_table!.length).toBeGreaterThanOrEqual(2);
    expect(before.todo_changes_table!.length).toBeGreaterThanOrEqual(4);
    expect(before.file_links_table).toHaveLength(1);

    const started = await moverOf(workspace.id).start({ workspaceId: workspace.id, owner, source, target });
    expect(started.status).toBe("started");
    expectMoved(await finishedMove(workspace.id));

    expect(await workspaceRows(target, owner)).toEqual(before);
    expect(await rowCount(source, owner)).toBe(0);
    const after = await workspaceOf(owner);
    expect(after).toMatchObject({
      shard: target,
      state: "ready",
      targetShard: null,
      version: workspace.version + 2,
    });
  });

  it("copies every table of data-schema.ts that holds a workspace's rows, and no other", () => {
    // Queued work of subjects already deleted, and the mover's own fences: no owner, nothing to move. The
    // copies of members' roles follow the directory in every database, written again where a team lands.
    const ownerless = [
      "pending_erasures_table",
      "pending_agent_wipes_table",
      "workspace_fences_table",
      "team_roles_table",
    ];
    const data = Object.values(dataSchema).map((table) => getTableConfig(table).name);
    expect(MOVED_TABLES.map((table) => table.name).toSorted()).toEqual(
      data.filter((name) => !ownerless.includes(name)).toSorted(),
    );
  });
});

/** A trigger on a database, for one owner's rows only (tests share the databases), dropped by the returned function. */
async function withTrigger(db: D1Database, sql: (name: string) => string) {
  const name = `test_${crypto.randomUUID().replaceAll("-", "")}`;
  await db.prepare(sql(name)).run();
  return () => db.prepare(`DROP TRIGGER IF EXISTS ${name}`).run();
}

const otherShard = (shard: string) => (shard === "DB_SHARD_0" ? "DB_SHARD_1" : "DB_SHARD_0");

describe("a move that fails", () => {
  it("resumes after a step fails and ends with every row once", async () => {
    const { owner } = await userWithData("DB_SHARD_0");
    const workspace = await workspaceOf(owner);
    const target = otherShard(workspace.shard);
    const before = await workspaceRows(workspace.shard, owner);
    // A real failure on the target: its notes refuse this user's rows until the trigger goes.
    const drop = await withTrigger(
      shardBinding(env, target),
      (name) =>
        `CREATE TRIGGER ${name} BEFORE INSERT ON notes_table WHEN NEW.userId = ${owner.kind === "user" ? owner.userId : 0} ` +
        `BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    );
    await moverOf(workspace.id).start({ workspaceId: workspace.id, owner, source: workspace.shard, target });
    const failing = await moveReaches(workspace.id, (plan) => plan.lastError !== null);
    expect(failing.lastError).toContain("injected failure");
    expect(failing.phase).toBe("copy");
    await drop();

    expectMoved(await finishedMove(workspace.id));
    expect(await workspaceRows(target, owner)).toEqual(before);
    expect(await rowCount(workspace.shard, owner)).toBe(0);
  });

  it("rolls back when the verify finds a difference: the source stays intact and writable", async () => {
    const { user, owner } = await userWithData("DB_SHARD_1");
    const workspace = await workspaceOf(owner);
    const target = otherShard(workspace.shard);
    const before = await workspaceRows(workspace.shard, owner);
    // The target alters every note of this user it is given: its copy can never match.
    const skew = (event: string) => (name: string) =>
      `CREATE TRIGGER ${name} AFTER ${event} ON notes_table WHEN NEW.userId = ${user.userId} ` +
      `BEGIN UPDATE notes_table SET text = 'skewed' WHERE id = NEW.id; END`;
    const drops = [
      await withTrigger(shardBinding(env, target), skew("INSERT")),
      await withTrigger(shardBinding(env, target), skew("UPDATE")),
    ];
    try {
      await moverOf(workspace.id).start({
        workspaceId: workspace.id,
        owner,
        source: workspace.shard,
        target,
      });
      const plan = await finishedMove(workspace.id);
      expect(plan.phase).toBe("failed");
      expect(plan.failure).toMatch(/^Verify failed on notes_table/);
    } finally {
      for (const drop of drops) await drop();
    }
    expect(await workspaceRows(workspace.shard, owner)).toEqual(before);
    expect(await rowCount(target, owner)).toBe(0);
    expect(await workspaceOf(owner)).toMatchObject({
      shard: workspace.shard,
      state: "ready",
      targetShard: null,
    });
    const res = await api("/api/notes", { method: "POST", token: user.token, json: { text: "still here" } });
    expect(res.status).toBe(201);
  });
});
