import { describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { api, expectError } from "../helpers/http";
import { createTodo, snapshot, storedKey, todoOf } from "../helpers/todos";

const etagOf = (id: number, version: number) => `"todo-${id}-v${version}"`;

const updateIf = (user: SignedUpUser, id: number, ifMatch: string | undefined, json: unknown) =>
  api(`/api/todos/${id}`, {
    method: "POST",
    token: user.token,
    json,
    headers: ifMatch === undefined ? {} : { "If-Match": ifMatch },
  });

const deleteIf = (user: SignedUpUser, id: number, ifMatch: string) =>
  api(`/api/todos/${id}/delete`, { method: "POST", token: user.token, headers: { "If-Match": ifMatch } });

describe("todo versions and ETags", () => {
  it("create answers version 1 and its ETag; every write raises the version", async () => {
    const alice = await signUp();
    const res = await api("/api/todos", { method: "POST", token: alice.token, json: { title: "v" } });
    expect(res.status).toBe(201);
    const todo = (res.body as any).data;
    expect(todo.version).toBe(1);
    expect(res.headers.get("ETag")).toBe(etagOf(todo.id, 1));
    const next = await updateIf(alice, todo.id, undefined, { title: "w" });
    expect(todoOf(next).version).toBe(2);
    expect(next.headers.get("ETag")).toBe(etagOf(todo.id, 2));
    // An attachments-only change is a write too.
    expect(todoOf(await updateIf(alice, todo.id, undefined, { attachments: [] })).version).toBe(3);
  });

  it("GET answers the strong ETag; If-None-Match with it (or *, or W/) is 304 until the todo changes", async () => {
    const alice = await signUp();
    const todo = await createTodo(alice);
    const got = await api(`/api/todos/${todo.id}`, { token: alice.token });
    expect(got.headers.get("ETag")).toBe(etagOf(todo.id, 1));
    for (const tag of [etagOf(todo.id, 1), "*", `W/${etagOf(todo.id, 1)}`, `"x", ${etagOf(todo.id, 1)}`]) {
      const cached = await api(`/api/todos/${todo.id}`, {
        token: alice.token,
        headers: { "If-None-Match": tag },
      });
      expect(cached.status, tag).toBe(304);
      expect(cached.text).toBe("");
      expect(cached.headers.get("ETag")).toBe(etagOf(todo.id, 1));
    }
    await updateIf(alice, todo.id, undefined, { completed: true });
    const fresh = await api(`/api/todos/${todo.id}`, {
      token: alice.token,
      headers: { "If-None-Match": etagOf(todo.id, 1) },
    });
    expect(todoOf(fresh).version).toBe(2);
  });

  it("C1: If-Match with the current ETag writes; a stale one is 412 with the current ETag and changes nothing", async () => {
    const alice = await signUp();
    const key = await storedKey("a.txt");
    const todo = await createTodo(alice, { title: "Mine", attachments: [{ fileKey: key }] });
    // Someone else's edit (another tab, an AI tool) lands first.
    expect(todoOf(await updateIf(alice, todo.id, etagOf(todo.id, 1), { title: "Their edit" })).version).toBe(
      2,
    );
    const before = await snapshot(todo.id);
    for (const body of [{ title: "My stale edit" }, { title: "x", attachments: [] }, { completed: true }]) {
      const stale = await updateIf(alice, todo.id, etagOf(todo.id, 1), body);
      expectError(stale, 412, /Todo changed since you read it: it is at version 2/);
      expect(stale.headers.get("ETag")).toBe(etagOf(todo.id, 2));
      expect(await snapshot(todo.id)).toEqual(before);
    }
    const stale = await deleteIf(alice, todo.id, etagOf(todo.id, 1));
    expectError(stale, 412);
    expect(await snapshot(todo.id)).toEqual(before);
    // With the version now current, both go through.
    const edited = todoOf(
      await updateIf(alice, todo.id, etagOf(todo.id, 2), { title: "Mine again", attachments: [] }),
    );
    expect(edited).toMatchObject({ version: 3, title: "Mine again", attachments: [] });
    expect((await deleteIf(alice, todo.id, `"nope", ${etagOf(todo.id, 3)}`)).status).toBe(200);
  });

  it("C1: If-Match: * matches any version; weak, malformed or another todo's tags match none (412)", async () => {
    const alice = await signUp();
    const [todo, other] = [await createTodo(alice), await createTodo(alice)];
    expect(todoOf(await updateIf(alice, todo.id, "*", { title: "any" })).version).toBe(2);
    for (const tag of [`W/${etagOf(todo.id, 2)}`, "2", '"todo-x-v2"', etagOf(other.id, 2)]) {
      expectError(await updateIf(alice, todo.id, tag, { title: "no" }), 412);
    }
    expect((await api(`/api/todos/${todo.id}`, { token: alice.token })).headers.get("ETag")).toBe(
      etagOf(todo.id, 2),
    );
  });

  it("A1: another user's or a missing todo is 404 with or without If-Match, never 412", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const todo = await createTodo(alice);
    const before = await snapshot(todo.id);
    expectError(await updateIf(bob, todo.id, etagOf(todo.id, 1), { title: "x" }), 404, "Todo not found");
    expectError(await updateIf(bob, todo.id, etagOf(todo.id, 9), { title: "x" }), 404, "Todo not found");
    expectError(await deleteIf(bob, todo.id, etagOf(todo.id, 1)), 404, "Todo not found");
    expectError(await deleteIf(alice, 2_147_483_647, "*"), 404);
    expect(await snapshot(todo.id)).toEqual(before);
  });

  it("C2: 10 parallel updates all sending the same If-Match: exactly one writes, the others are 412", async () => {
    const alice = await signUp();
    const todo = await createTodo(alice);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        updateIf(alice, todo.id, etagOf(todo.id, 1), { title: `edit ${i}` }),
      ),
    );
    expect(answers.map((a) => a.status).toSorted()).toEqual([200, ...Array(9).fill(412)]);
    const winner = todoOf(answers.find((a) => a.status === 200)!);
    expect(todoOf(await api(`/api/todos/${todo.id}`, { token: alice.token }))).toMatchObject({
      title: winner.title,
      version: 2,
    });
  });
});
