import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { api, expectError, request, expectData } from "../helpers/http";
import { TodoPageSchema, TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";

const HEADER = "x-d1-bookmark";
const BOOKMARK = /^[0-9a-f]{8}(?:-[0-9a-f]{8,64}){1,7}$/i;

function bookmarkOf(res: { headers: Headers }): string {
  const value = res.headers.get(HEADER);
  if (!value || !BOOKMARK.test(value)) throw new Error(`no bookmark: ${value}`);
  return value;
}

async function todoCount(token: string, bookmark?: string) {
  const res = await api("/api/todos?pageSize=1", { token, headers: bookmark ? { [HEADER]: bookmark } : {} });
  return { total: expectData(res, 200, TodoPageSchema).total, bookmark: bookmarkOf(res) };
}

describe("D1 sessions (x-d1-bookmark)", () => {
  it("returns a bookmark on D1 reads and writes, and a write moves it forward", async () => {
    const user = await signUp();
    const before = await todoCount(user.token);

    const created = await api("/api/todos", { method: "POST", token: user.token, json: { title: "one" } });
    expect(created.status).toBe(201);
    const afterWrite = bookmarkOf(created);
    // Bookmarks are fixed-width hex positions in D1's log: later ones sort after earlier ones.
    expect(afterWrite > before.bookmark).toBe(true);
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
      expect(read.bookmark >= bookmark).toBe(true);
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
    expect(bookmarkOf(missing) >= bookmark).toBe(true);
  });

  it("answers 400 for a malformed bookmark before doing anything", async () => {
    const user = await signUp();
    const { total } = await todoCount(user.token);
    for (const bad of ["abc", "0".repeat(300), "' OR 1=1 --", "00000001-zzzzzzzz", "first-primary"]) {
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
    expect(res.headers.get(HEADER)).toMatch(BOOKMARK);
  });
});
