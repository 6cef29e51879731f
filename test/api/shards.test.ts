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
import { fetchWithEnv } from "../helpers/storage";
import { createTodo, pageOf } from "../helpers/todos";

const SHARDS = ["DB_SHARD_0", "DB_SHARD_1"];

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
});
