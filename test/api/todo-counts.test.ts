import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { dataDb, placeOn } from "../helpers/shards";
import { api, expectData } from "../helpers/http";
import { createTodo, pageOf, updated } from "../helpers/todos";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";

// The list's totals come from todo_counts_table, kept by triggers (migrations/0003_todo_counts.sql).
// Every test checks them against a COUNT over the todos themselves.

interface Counts {
  total: number;
  completed: number;
}

/** `db`: the user's data database, given when their workspace row is gone or renamed (a delete, an id change). */
async function countedRows(userId: number, db?: D1Database): Promise<Counts> {
  const row = await (db ?? (await dataDb({ userId })))
    .prepare(
      "SELECT count(*) AS total, coalesce(sum(completed), 0) AS completed FROM todos_table WHERE userId = ?",
    )
    .bind(userId)
    .first<Counts>();
  return row!;
}

async function countsRow(userId: number, db?: D1Database) {
  return (db ?? (await dataDb({ userId })))
    .prepare("SELECT total, completed FROM todo_counts_table WHERE userId = ?")
    .bind(userId)
    .first<Counts>();
}

/** The three totals the API answers, one per filter. */
async function listedTotals(user: SignedUpUser) {
  const total = async (query: string) =>
    pageOf(await api(`/api/todos?pageSize=1${query}`, { token: user.token })).total;
  return {
    all: await total(""),
    done: await total("&completed=true"),
    open: await total("&completed=false"),
  };
}

async function expectTotalsMatchRows(user: SignedUpUser) {
  const truth = await countedRows(user.userId);
  expect(await listedTotals(user)).toEqual({
    all: truth.total,
    done: truth.completed,
    open: truth.total - truth.completed,
  });
}

/** A small deterministic PRNG, so a failing sequence replays exactly. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

describe("list totals from the per-user counts", () => {
  let user: SignedUpUser;

  beforeAll(async () => {
    user = await signUp();
  });

  it("answers 0 for a user with no todos, and keeps no counts row for them", async () => {
    expect(await listedTotals(user)).toEqual({ all: 0, done: 0, open: 0 });
    expect(await countsRow(user.userId)).toBeNull();
  });

  it("follows 60 random creates, completion changes, other edits and deletes (seed 20261123)", async () => {
    const next = random(20_261_123);
    const ids: number[] = [];
    for (let step = 0; step < 60; step++) {
      const roll = next();
      if (ids.length === 0 || roll < 0.4) {
        ids.push((await createTodo(user, { title: `s${step}`, completed: next() < 0.5 })).id);
      } else {
        const id = ids[Math.floor(next() * ids.length)]!;
        if (roll < 0.65) await updated(user, id, { completed: next() < 0.5 });
        else if (roll < 0.8) await updated(user, id, { title: `edited ${step}` });
        else {
          expect((await api(`/api/todos/${id}/delete`, { method: "POST", token: user.token })).status).toBe(
            200,
          );
          ids.splice(ids.indexOf(id), 1);
        }
      }
      await expectTotalsMatchRows(user);
    }
  });

  it("counts a completion set twice once, and an uncompleted one back out", async () => {
    const todo = await createTodo(user, { title: "twice" });
    const before = await countedRows(user.userId);
    await updated(user, todo.id, { completed: true });
    await updated(user, todo.id, { completed: true });
    expect(await countsRow(user.userId)).toEqual({ ...before, completed: before.completed + 1 });
    await updated(user, todo.id, { completed: false });
    expect(await countsRow(user.userId)).toEqual(before);
  });

  it("drops the counts row with the last todo, and with the account", async () => {
    const dora = await signUp();
    const todo = await createTodo(dora, { completed: true });
    expect(await countsRow(dora.userId)).toEqual({ total: 1, completed: 1 });
    expect((await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: dora.token })).status).toBe(
      200,
    );
    expect(await countsRow(dora.userId)).toBeNull();

    await createTodo(dora);
    await createTodo(dora, { completed: true });
    const shard = await dataDb({ userId: dora.userId });
    const res = await api(`/api/users/${dora.userId}/delete`, { method: "POST", token: dora.token });
    expect(res.status).toBe(200);
    expect(await countsRow(dora.userId, shard)).toBeNull();
    expect(await countedRows(dora.userId, shard)).toEqual({ total: 0, completed: 0 });
  });

  it("moves the counts with a todo that changes owner, and with a user whose id changes", async () => {
    const [erin, finn] = await Promise.all([signUp(), signUp()]);
    // Ids change only in the directory, whose legacy tables follow by cascade: these are workspaces there.
    await Promise.all([erin, finn].map((one) => placeOn({ userId: one.userId }, "DB")));
    const moved = await createTodo(erin, { completed: true });
    await createTodo(erin);
    await createTodo(finn);
    // Neither move has an API; the triggers keep the counts whatever writes the rows.
    await env.DB.prepare("UPDATE todos_table SET userId = ? WHERE id = ?").bind(finn.userId, moved.id).run();
    expect(await countsRow(erin.userId)).toEqual({ total: 1, completed: 0 });
    expect(await countsRow(finn.userId)).toEqual({ total: 2, completed: 1 });

    const newId = finn.userId + 1_000_000;
    await env.DB.prepare("UPDATE users_table SET id = ? WHERE id = ?").bind(newId, finn.userId).run();
    expect(await countsRow(finn.userId, env.DB)).toBeNull();
    expect(await countsRow(newId, env.DB)).toEqual({ total: 2, completed: 1 });
  });

  it("agrees with a todo created with attachments, and with one that failed to be created", async () => {
    const before = await countedRows(user.userId);
    const missingKey = `${crypto.randomUUID()}-gone.txt`;
    const res = await api("/api/todos", {
      method: "POST",
      token: user.token,
      json: { title: "with a missing file", attachments: [{ fileKey: missingKey }] },
    });
    expectData(res, 201, TodoWithAttachmentsSchema);
    const bad = await api("/api/todos", { method: "POST", token: user.token, json: { title: 42 } });
    expect(bad.status).toBe(400);
    expect(await countedRows(user.userId)).toEqual({ ...before, total: before.total + 1 });
    await expectTotalsMatchRows(user);
  });
});

describe("migration 0003's backfill", () => {
  it("rebuilds every user's counts from the todos already stored", async () => {
    const [gail, hank] = await Promise.all([signUp(), signUp()]);
    // 0003 ran on the directory, before shards: these two are workspaces still there (legacy).
    await Promise.all([gail, hank].map((one) => placeOn({ userId: one.userId }, "DB")));
    await createTodo(gail, { completed: true });
    await createTodo(gail);
    await createTodo(hank);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0003_"))!;
    const backfill = migration.queries.find((q) => q.includes("SELECT `userId`, count(*)"))!;
    expect(backfill).toBeDefined();

    // Only this test's users are compared, and every row is put back afterwards: other files' users
    // share the database, and their team todos (no userId, which 0003 predates) would get a row of
    // their own from the backfill.
    const mine = [gail.userId, hank.userId];
    const before = await Promise.all(mine.map((id) => countsRow(id)));
    const all = await env.DB.prepare("SELECT userId, total, completed FROM todo_counts_table").all<
      Counts & { userId: number }
    >();
    await env.DB.prepare("DELETE FROM todo_counts_table").run();
    await env.DB.prepare(backfill).run();
    const rebuilt = await Promise.all(mine.map((id) => countsRow(id)));
    const put = env.DB.prepare("INSERT INTO todo_counts_table (userId, total, completed) VALUES (?, ?, ?)");
    await env.DB.batch([
      env.DB.prepare("DELETE FROM todo_counts_table"),
      ...all.results.map((row) => put.bind(row.userId, row.total, row.completed)),
    ]);
    expect(rebuilt).toEqual(before);
    expect(rebuilt).toEqual([
      { total: 2, completed: 1 },
      { total: 1, completed: 0 },
    ]);
  });
});
