import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { api, expectError, request, expectData } from "../helpers/http";
import { callTool, initialize, PROTOCOL, rpc } from "../helpers/mcp";
import { TodoWithAttachmentsSchema, TodoPageSchema } from "../../src/todos/todos.schemas";

describe("/mcp: authentication before any MCP exchange", () => {
  it.each([
    ["no header", undefined, "Missing bearer token"],
    ["a forged token", "a.b.c", "Invalid or expired token"],
  ])("answers 401 in the envelope for %s", async (_, token, message) => {
    const res = await api("/mcp", {
      method: "POST",
      token,
      json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expectError(res, 401, message);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer realm="mcp"/);
  });

  it("refuses a Basic scheme and answers a CORS preflight without credentials", async () => {
    const { token } = await signUp();
    expectError(await api("/mcp", { method: "POST", headers: { Authorization: `Basic ${token}` } }), 401);
    const preflight = await request("/mcp", { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
  });
});

describe("/mcp: the todo tools of the signed-in user", () => {
  it("initializes, lists the eight tools with JSON schemas, and creates a todo seen over REST", async () => {
    const { token } = await signUp();
    const init = await initialize(token);
    expect(init.status).toBe(200);
    expect(init.body.result).toMatchObject({ protocolVersion: PROTOCOL, capabilities: { tools: {} } });

    const list = await rpc(token, "tools/list");
    const tools = list.body.result.tools as { name: string; inputSchema: any; annotations: any }[];
    expect(tools.map((t) => t.name).toSorted()).toEqual(
      [
        "completeTodo",
        "createTodo",
        "deleteTodo",
        "getTodo",
        "listAttachments",
        "listTodos",
        "searchTodos",
        "updateTodo",
      ].toSorted(),
    );
    const create = tools.find((t) => t.name === "createTodo")!;
    expect(create.inputSchema.required).toEqual(["title"]);
    expect(Object.keys(create.inputSchema.properties)).not.toContain("userId");
    expect(create.annotations.readOnlyHint).toBe(false);

    const called = await callTool(token, "createTodo", { title: "From MCP" });
    expect(called.result.isError).toBeFalsy();
    const todo = called.result.structuredContent;
    const rest = await api(`/api/todos/${todo.id}`, { token });
    expect(expectData(rest, 200, TodoWithAttachmentsSchema)).toMatchObject({
      title: "From MCP",
      completed: false,
    });
  });

  it("answers bad arguments and foreign ids with tool errors, writing nothing", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const created = await api("/api/todos", {
      method: "POST",
      token: alice.token,
      json: { title: "Alice's" },
    });
    const id = expectData(created, 201, TodoWithAttachmentsSchema).id;

    const wrongType = await callTool(bob.token, "createTodo", { title: 42 });
    expect(wrongType.result?.isError ?? wrongType.error).toBeTruthy();
    const foreign = await callTool(bob.token, "deleteTodo", { id, expectedVersion: 1 });
    expect(foreign.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Todo not found" }],
    });
    expect(
      expectData(await api(`/api/todos/${id}`, { token: alice.token }), 200, TodoWithAttachmentsSchema).title,
    ).toBe("Alice's");
    expect(expectData(await api("/api/todos", { token: bob.token }), 200, TodoPageSchema).total).toBe(0);

    const unknown = await callTool(bob.token, "dropTables", {});
    expect(unknown.result?.isError ?? unknown.error).toBeTruthy();
  });

  it("answers malformed JSON-RPC with a client error, never a 500", async () => {
    const { token } = await signUp();
    for (const body of ["{", '{"jsonrpc":"2.0"}', "[]", '"x"']) {
      const res = await request("/mcp", {
        method: "POST",
        token,
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body,
      });
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
      await res.body?.cancel();
    }
  });
});
