import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { fetchWith, requestTicket, upgradeWith } from "../helpers/agents";
import { awaitEvent, feedPath, isTodoEvent, openFeed } from "../helpers/feed";
import { callTool } from "../helpers/mcp";
import { api, expectError } from "../helpers/http";
import { createTodo, updated } from "../helpers/todos";
import { acceptSocket, rpc } from "../helpers/ws";

describe("the live todo feed (TodoFeedAgent, one per user)", () => {
  it("publishes every REST write to the owner's open sockets within 1 s", async () => {
    const alice = await signUp();
    const [tab1, tab2] = await Promise.all([openFeed(alice), openFeed(alice)]);
    // Timed from the write's answer: by then it has committed, and the publish runs after the answer.
    const todo = await createTodo(alice, { title: "Live" });
    let since = performance.now();
    for (const tab of [tab1, tab2]) {
      expect(await awaitEvent(tab, { type: "todo.created", id: todo.id, version: 1 }, since)).toBeLessThan(
        1_000,
      );
    }
    const changed = await updated(alice, todo.id, { completed: true });
    since = performance.now();
    expect(changed.version).toBe(2);
    expect(await awaitEvent(tab1, { type: "todo.updated", id: todo.id, version: 2 }, since)).toBeLessThan(
      1_000,
    );
    expect((await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: alice.token })).status).toBe(
      200,
    );
    since = performance.now();
    for (const tab of [tab1, tab2]) {
      expect(await awaitEvent(tab, { type: "todo.deleted", id: todo.id, version: 3 }, since)).toBeLessThan(
        1_000,
      );
    }
    // The frames are exactly { type, id, version }.
    const events = tab1.frames.map((f) => f.data).filter(isTodoEvent);
    expect(events).toEqual([
      { type: "todo.created", id: todo.id, version: 1 },
      { type: "todo.updated", id: todo.id, version: 2 },
      { type: "todo.deleted", id: todo.id, version: 3 },
    ]);
    tab1.close();
    tab2.close();
  });

  it("C10: another user's socket receives nothing of it", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const [aliceFeed, bobFeed] = await Promise.all([openFeed(alice), openFeed(bob)]);
    const todo = await createTodo(alice, { title: "Alice only" });
    await updated(alice, todo.id, { title: "Still Alice's" });
    await awaitEvent(aliceFeed, { type: "todo.updated", id: todo.id, version: 2 }, performance.now());
    // Bob's own write comes through his feed after Alice's: had hers reached him, it would be there first.
    const mine = await createTodo(bob, { title: "Bob's" });
    await awaitEvent(bobFeed, { type: "todo.created", id: mine.id, version: 1 }, performance.now());
    expect(bobFeed.frames.map((f) => f.data).filter(isTodoEvent)).toEqual([
      { type: "todo.created", id: mine.id, version: 1 },
    ]);
    aliceFeed.close();
    bobFeed.close();
  });

  it("publishes writes through MCP's tools too", async () => {
    const alice = await signUp();
    const feed = await openFeed(alice);
    const todo = await createTodo(alice, { title: "From REST" });
    const res = await callTool(alice.token, "completeTodo", { id: todo.id, expectedVersion: 1 });
    const since = performance.now();
    expect(res.result?.isError).toBeFalsy();
    expect(await awaitEvent(feed, { type: "todo.updated", id: todo.id, version: 2 }, since)).toBeLessThan(
      1_000,
    );
    feed.close();
  });

  it("C10: only the owner connects, with a ticket or token, whatever AGENTS_REQUIRE_AUTH says", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const path = feedPath(alice.userId);
    // AGENTS_REQUIRE_AUTH is "false" in this project: the feed still refuses before the upgrade.
    expect(env.AGENTS_REQUIRE_AUTH).toBe("false");
    const anonymous = await upgradeWith({}, path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("WWW-Authenticate")).toContain('realm="agents"');
    expect((await upgradeWith({}, `${path}?token=${bob.token}`)).status).toBe(403);
    expectError(await requestTicket(bob.token, "todo-feed-agent", `user-${alice.userId}`), 403);
    // One feed per user: no suffixed names.
    expectError(await requestTicket(alice.token, "todo-feed-agent", `user-${alice.userId}-x`), 403);
    // Bob's ticket for his own feed does not open Alice's.
    const bobTicket = await requestTicket(bob.token, "todo-feed-agent", `user-${bob.userId}`);
    expect((await upgradeWith({}, `${path}?ticket=${bobTicket.body.data.ticket}`)).status).toBe(401);
    expect((await upgradeWith({}, `${path}?ticket=not-a-ticket`)).status).toBe(401);
    // A plain GET is not a feed, and needs the owner too.
    expect((await api(path)).status).toBe(401);
    expect((await api(path, { token: alice.token })).status).toBe(404);
    const own = await acceptSocket(await upgradeWith({}, `${path}?token=${alice.token}`));
    own.close();
  });

  it("C11: refuses a client's state push and RPC; the feed keeps working", async () => {
    const alice = await signUp();
    const feed = await openFeed(alice);
    feed.send({ type: "cf_agent_state", state: { hacked: true } });
    await feed.waitFor((d) => d?.type === "cf_agent_state_error");
    // wake() and the rest are for the Worker's own binding, not callables; events come from the change log only.
    for (const method of ["wake", "followLog", "eventsSince", "publish"]) {
      expect((await rpc(feed, method, [{ type: "todo.deleted", id: 1, version: 99 }])).success).toBe(false);
    }
    expect(feed.frames.some((f) => f.data?.version === 99)).toBe(false);
    const todo = await createTodo(alice);
    await awaitEvent(feed, { type: "todo.created", id: todo.id, version: 1 }, performance.now());
    feed.close();
  });

  it("C11: a feed that fails does not fail the write: logged, and delta sync still has the change", async () => {
    const alice = await signUp();
    const broken = new Proxy(env.TodoFeedAgent, {
      get: () => () => {
        throw new Error("feed down");
      },
    });
    const res = await fetchWith({ TodoFeedAgent: broken } as Partial<Env>, "/api/todos", {
      method: "POST",
      headers: { Authorization: `Bearer ${alice.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Written anyway" }),
    });
    expect(res.status).toBe(201);
    const { id } = ((await res.json()) as any).data;
    const sync = await api("/api/todos?updatedSince=0", { token: alice.token });
    expect((sync.body as any).data.changes).toEqual([expect.objectContaining({ type: "todo.created", id })]);
  });

  it("a feed that missed events takes them from the change log when it starts again, in order, once", async () => {
    const alice = await signUp();
    const feed = await openFeed(alice);
    const heard = await createTodo(alice, { title: "heard" });
    await awaitEvent(feed, { type: "todo.created", id: heard.id, version: 1 }, performance.now());
    // Two writes whose publish never reaches the feed (the Worker's binding to it fails).
    const broken = new Proxy(env.TodoFeedAgent, {
      get: () => () => {
        throw new Error("feed down");
      },
    });
    const missed = [];
    for (const title of ["missed 1", "missed 2"]) {
      const res = await fetchWith({ TodoFeedAgent: broken } as Partial<Env>, "/api/todos", {
        method: "POST",
        headers: { Authorization: `Bearer ${alice.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ title }),
      });
      expect(res.status).toBe(201);
      missed.push(((await res.json()) as any).data.id as number);
    }
    // The feed is evicted (its socket hibernates) and starts again on its next use: the next write.
    await evictDurableObject(env.TodoFeedAgent.getByName(`user-${alice.userId}`));
    const next = await createTodo(alice, { title: "next" });
    await awaitEvent(feed, { type: "todo.created", id: next.id, version: 1 }, performance.now());
    const expected = [heard.id, ...missed, next.id].map((id) => ({ type: "todo.created", id, version: 1 }));
    expect(feed.frames.map((f) => f.data).filter(isTodoEvent)).toEqual(expected);
    const page = await env.TodoFeedAgent.getByName(`user-${alice.userId}`).eventsSince(0);
    expect(page.events.map(({ seq: _seq, ...e }) => e)).toEqual(expected);
    feed.close();
  });

  it("a socket that opens after writes hears what comes after, not what came before", async () => {
    const alice = await signUp();
    // Written while nobody listens: the woken feed reads nothing yet (no listeners), so its log cursor lags.
    const before = await createTodo(alice, { title: "before" });
    await updated(alice, before.id, { title: "before, edited" });
    const feed = await openFeed(alice);
    const after = await createTodo(alice, { title: "after" });
    await awaitEvent(feed, { type: "todo.created", id: after.id, version: 1 }, performance.now());
    expect(feed.frames.map((f) => f.data).filter(isTodoEvent)).toEqual([
      { type: "todo.created", id: after.id, version: 1 },
    ]);
    feed.close();
  });

  it("other Workers read the events over RPC (eventsSince), with a cursor that resumes", async () => {
    const alice = await signUp();
    const name = `user-${alice.userId}`;
    const read = async (after: number) =>
      (await env.RPC_CONSUMER.fetch(`http://consumer/feed-events?name=${name}&after=${after}`)).json<any>();
    const first = await createTodo(alice, { title: "one" });
    await updated(alice, first.id, { title: "two" });
    await expect.poll(async () => (await read(0)).events.length, { timeout: 5_000 }).toBe(2);
    const page = await read(0);
    expect(page).toMatchObject({ complete: true });
    expect(page.events.map(({ seq: _seq, ...e }: any) => e)).toEqual([
      { type: "todo.created", id: first.id, version: 1 },
      { type: "todo.updated", id: first.id, version: 2 },
    ]);
    const second = await createTodo(alice, { title: "three" });
    await expect
      .poll(async () => (await read(page.cursor)).events, { timeout: 5_000 })
      .toEqual([{ type: "todo.created", id: second.id, version: 1, seq: page.cursor + 1 }]);
    expect((await read(page.cursor + 1)).events).toEqual([]);
  });
});
