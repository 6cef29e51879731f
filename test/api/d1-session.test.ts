import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { shardOf } from "../helpers/shards";
import { api, expectError, request, expectData } from "../helpers/http";
import { TodoPageSchema, TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";

const HEADER = "x-d1-bookmark";
// One value for every database touched: the directory's bookmark bare, then `DB_SHARD_<n>=<bookmark>`.
const ENTRY = /^(?:(DB_SHARD_\d+)=)?([0-9a-f]{8}(?:-[0-9a-f]{8,64}){1,7})$/i;

/** Each database's bookmark in a header value ("DB": the directory's). */
function positions(value: string): Map<string, string> {
  const entries = value.split(",").map((entry) => ENTRY.exec(entry));
  if (entries.some((match) => !match)) throw new Error(`not a bookmark: ${value}`);
  return new Map(entries.map((match) => [match![1] ?? "DB", match![2]!]));
}

function bookmarkOf(res: { headers: Headers }): string {
  const value = res.headers.get(HEADER);
  if (!value) throw new Error("no bookmark");
  positions(value);
  return value;
}

/** Whether `later` is at least as new as `earlier` for every database `earlier` names (strictly, with `moved`). */
function newer(later: string, earlier: string, moved?: string): boolean {
  const after = positions(later);
  return [...positions(earlier)].every(([db, at]) => {
    const now = after.get(db);
    return now !== undefined && (db === moved ? now > at : now >= at);
  });
}

async function todoCount(token: string, bookmark?: string) {
  const res = await api("/api/todos?pageSize=1", { token, headers: bookmark ? { [HEADER]: bookmark } : {} });
  return { total: expectData(res, 200, TodoPageSchema).total, bookmark: bookmarkOf(res) };
}

describe("D1 sessions (x-d1-bookmark)", () => {
  it("returns a bookmark on D1 reads and writes, and a write moves it forward", async () => {
    const user = await signUp();
    const before = await todoCount(user.token);

    // Each bookmark sent back, as clients do: a write whose route the isolate remembers touches no
    // directory, and its answer keeps the directory's bookmark as sent.
    const write = (title: string, bookmark: string) =>
      api("/api/todos", {
        method: "POST",
        token: user.token,
        json: { title },
        headers: { [HEADER]: bookmark },
      });
    const created = await write("one", before.bookmark);
    expect(created.status).toBe(201);
    const afterWrite = bookmarkOf(created);
    // Bookmarks are fixed-width hex positions in D1's log: later ones sort after earlier ones. The todo
    // went to the user's shard, whose bookmark the answer now carries beside the directory's.
    const shard = (await shardOf({ userId: user.userId }))!;
    expect(positions(afterWrite).has(shard)).toBe(true);
    expect(newer(afterWrite, before.bookmark)).toBe(true);
    const again = await write("two", afterWrite);
    expect(newer(bookmarkOf(again), afterWrite, shard)).toBe(true);
  });

  it("round trip: a read that sends the write's bookmark sees the write and answers a bookmark at least as new", async () => {
    const user = await signUp();
    let bookmark = (await todoCount(user.token)).bookmark;
    for (let i = 1; i <= 3; i++) {
      const created = await api("/api/todos", {
        method: "POST",
        token: user.token,
        json: { title: `todo ${i}` },
        headers: { [HEADER]: bookmark },
      });
      expect(created.status).toBe(201);
      bookmark = bookmarkOf(created);
      const read = await todoCount(user.token, bookmark);
      expect(read.total).toBe(i);
      expect(newer(read.bookmark, bookmark)).toBe(true);
      const one = await api(`/api/todos/${expectData(created, 201, TodoWithAttachmentsSchema).id}`, {
        token: user.token,
        headers: { [HEADER]: bookmark },
      });
      expect(expectData(one, 200, TodoWithAttachmentsSchema).title).toBe(`todo ${i}`);
      bookmark = read.bookmark;
    }
  });

  it("keeps the bookmark on error answers that ran in the session", async () => {
    const user = await signUp();
    const { bookmark } = await todoCount(user.token);
    const missing = await api("/api/todos/999999999", { token: user.token, headers: { [HEADER]: bookmark } });
    expectError(missing, 404, "Todo not found");
    expect(newer(bookmarkOf(missing), bookmark)).toBe(true);
  });

  it("accepts a single bookmark as the directory's (what one database answered), and keeps the ones it did not touch", async () => {
    const user = await signUp();
    const { bookmark } = await todoCount(user.token);
    const directoryOnly = positions(bookmark).get("DB")!;
    const read = await api("/api/todos?pageSize=1", {
      token: user.token,
      headers: { [HEADER]: directoryOnly },
    });
    expect(read.status).toBe(200);
    expect(newer(bookmarkOf(read), directoryOnly)).toBe(true);
    // A database this request does not touch (GET /api/me reads the directory alone) keeps its position.
    const sent = `${directoryOnly},DB_SHARD_1=00000001-00000002`;
    const kept = await api("/api/me", { token: user.token, headers: { [HEADER]: sent } });
    expect(positions(bookmarkOf(kept)).get("DB_SHARD_1")).toBe("00000001-00000002");
  });

  it("answers 400 for a malformed bookmark before doing anything", async () => {
    const user = await signUp();
    const { total } = await todoCount(user.token);
    const good = "00000001-00000002";
    for (const bad of [
      "abc",
      "0".repeat(300),
      "' OR 1=1 --",
      "00000001-zzzzzzzz",
      "first-primary",
      `${good},${good}`,
      `DB_SHARD_99=${good}`,
      `USERS=${good}`,
      `DB_SHARD_0=${good},DB_SHARD_0=${good}`,
      Array.from({ length: 65 }, () => `DB_SHARD_0=${good}`).join(","),
    ]) {
      expectError(
        await api("/api/todos", {
          method: "POST",
          token: user.token,
          json: { title: "x" },
          headers: { [HEADER]: bad },
        }),
        400,
        /^Invalid x-d1-bookmark/,
      );
      expectError(
        await api("/api/todos", { token: user.token, headers: { [HEADER]: bad } }),
        400,
        /^Invalid x-d1-bookmark/,
      );
    }
    expect((await todoCount(user.token)).total).toBe(total);
  });

  it("lets browsers send and read the header through CORS", async () => {
    const preflight = await request("/api/todos", {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:5173",
        "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "authorization, x-d1-bookmark",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain(HEADER);
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toContain("PUT");
    const user = await signUp();
    const res = await request("/api/todos", {
      headers: { Origin: "http://localhost:5173", Authorization: `Bearer ${user.token}` },
    });
    expect(res.headers.get("Access-Control-Expose-Headers")?.toLowerCase()).toContain(HEADER);
    expect(positions(bookmarkOf(res)).size).toBeGreaterThan(0);
  });
});
