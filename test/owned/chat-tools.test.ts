// Runs with AGENTS_REQUIRE_AUTH=true (project "workers-owned"): chat instances `user-<id>` belong to a user.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TOOL_DONE_TEXT } from "../fakes/workers-ai";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { awaitEvent, openFeed } from "../helpers/feed";
import { api, expectData } from "../helpers/http";
import { approve, ask, open, toolPart, transcript } from "../helpers/chat-tools";
import { connectWS } from "../helpers/ws";
import { TodoPageSchema, TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";

async function todoTitles(user: SignedUpUser): Promise<string[]> {
  const res = await api("/api/todos", { token: user.token });
  return expectData(res, 200, TodoPageSchema).items.map((t) => t.title);
}

describe("chat tools in an owned chat (AGENTS_REQUIRE_AUTH=true)", () => {
  it("runs a read tool at once, for the owner only", async () => {
    const user = await signUp();
    await api("/api/todos", { method: "POST", token: user.token, json: { title: "Existing" } });
    const socket = await open(user);
    await ask(socket, "r1", '[script:tool:listTodos {"completed":false}]');
    await expect.poll(() => toolPart(user, "listTodos")).toMatchObject({ state: "output-available" });
    const part = (await toolPart(user, "listTodos"))!;
    expect(part.output.items.map((t: { title: string }) => t.title)).toEqual(["Existing"]);
    await expect.poll(async () => JSON.stringify(await transcript(user))).toContain(TOOL_DONE_TEXT.join(""));
    socket.close();
  });

  it("waits for approval of a write; the request survives a reconnect; approving creates the todo", async () => {
    const user = await signUp();
    const first = await open(user);
    await ask(first, "w1", '[script:tool:createTodo {"title":"Buy milk"}]');
    const pending = (await toolPart(user, "createTodo"))!;
    expect(pending).toMatchObject({ state: "approval-requested", input: { title: "Buy milk" } });
    expect(await todoTitles(user)).toEqual([]);
    first.close();
    await first.closed;

    // A reload: a new connection sees the same pending request and answers it.
    const second = await open(user);
    expect(await toolPart(user, "createTodo")).toMatchObject({ state: "approval-requested" });
    approve(second, pending.toolCallId, true);
    await expect
      .poll(() => toolPart(user, "createTodo"), { timeout: 5_000 })
      .toMatchObject({
        state: "output-available",
        output: { title: "Buy milk", userId: user.userId },
      });
    expect(await todoTitles(user)).toEqual(["Buy milk"]);
    second.close();
  });

  it("C3: an approved write reaches the owner's live feed; one with a stale version writes nothing", async () => {
    const user = await signUp();
    const created = await api("/api/todos", { method: "POST", token: user.token, json: { title: "Mine" } });
    const { id } = expectData(created, 201, TodoWithAttachmentsSchema);
    const feed = await openFeed(user);
    const socket = await open(user);
    await ask(socket, "v1", `[script:tool:completeTodo {"id":${id},"expectedVersion":1}]`);
    approve(socket, (await toolPart(user, "completeTodo"))!.toolCallId, true);
    await awaitEvent(feed, { type: "todo.updated", id, version: 2 }, performance.now());

    // The model still holds version 1: its rename is refused with a tool error, the todo stays as it is.
    await ask(socket, "v2", `[script:tool:updateTodo {"id":${id},"expectedVersion":1,"title":"Renamed"}]`);
    approve(socket, (await toolPart(user, "updateTodo"))!.toolCallId, true);
    await expect
      .poll(() => toolPart(user, "updateTodo"), { timeout: 5_000 })
      .toMatchObject({
        state: "output-error",
        errorText: expect.stringMatching(/^Todo changed since you read it: it is at version 2/),
      });
    expect(await todoTitles(user)).toEqual(["Mine"]);
    socket.close();
    feed.close();
  });

  it("a denied write changes nothing", async () => {
    const user = await signUp();
    const socket = await open(user);
    await ask(socket, "d1", '[script:tool:createTodo {"title":"Never"}]');
    const pending = (await toolPart(user, "createTodo"))!;
    approve(socket, pending.toolCallId, false);
    await expect.poll(() => toolPart(user, "createTodo")).toMatchObject({ state: "output-denied" });
    expect(await todoTitles(user)).toEqual([]);
    socket.close();
  });

  it("a model cannot reach another user's todo through the tools", async () => {
    const [alice, mallory] = await Promise.all([signUp(), signUp()]);
    const created = await api("/api/todos", { method: "POST", token: alice.token, json: { title: "Alice" } });
    const socket = await open(mallory);
    await ask(
      socket,
      "x1",
      `[script:tool:getTodo {"id":${expectData(created, 201, TodoWithAttachmentsSchema).id}}]`,
    );
    await expect.poll(() => toolPart(mallory, "getTodo")).toMatchObject({ state: "output-error" });
    expect((await toolPart(mallory, "getTodo"))!).toMatchObject({ errorText: "Todo not found" });
    socket.close();
  });

  it("never reaches a chat whose name carries no user id: the gate refuses it before any model call", async () => {
    const user = await signUp();
    const before = (await (env.AI as unknown as { calls(): Promise<unknown[]> }).calls()).length;
    await expect(
      connectWS(`/agents/chat-agent/shared-${crypto.randomUUID()}?token=${user.token}`),
    ).rejects.toThrow(/upgrade refused: 403/);
    expect((await (env.AI as unknown as { calls(): Promise<unknown[]> }).calls()).length).toBe(before);
  });
});
