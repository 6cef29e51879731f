// docs/security.md K2-K5: an API key on /mcp and on the agents (connect tickets and plain HTTP with
// AGENTS_REQUIRE_AUTH on): within its scopes only, never in a URL, and refused once revoked.
import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { AUTH_ON, chatPath, counterPath, fetchWith, requestTicket, upgradeWith } from "../helpers/agents";
import { createKey } from "../helpers/credentials";
import { api, expectError, expectData } from "../helpers/http";
import { callTool, rpc } from "../helpers/mcp";
import { acceptSocket, freshName } from "../helpers/ws";
import { TodoPageSchema } from "../../src/todos/todos.schemas";

const LACKS = (scope: string) => `This API key lacks the scope ${scope}`;
const withTicket = (path: string, ticket: string) => `${path}?ticket=${encodeURIComponent(ticket)}`;
/** A plain HTTP agent request with AGENTS_REQUIRE_AUTH on, `key` in Authorization. */
const get = (key: string, path: string) =>
  fetchWith(AUTH_ON, path, { headers: { Authorization: `Bearer ${key}` } });

describe("/mcp with an API key", () => {
  it("todos:read lists and reads; a writing tool answers a tool error naming todos:write, writing nothing", async () => {
    const user = await signUp();
    const { key } = await createKey(user.token, ["todos:read"]);
    const list = await rpc(key, "tools/list");
    expect(list.status).toBe(200);
    expect(list.body.result.tools.length).toBe(9);
    const page = await callTool(key, "listTodos", {});
    expect(page.result.isError).toBeFalsy();

    const create = await callTool(key, "createTodo", { title: "by a read-only key" });
    expect(create.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: LACKS("todos:write") }],
    });
    expect(expectData(await api("/api/todos", { token: user.token }), 200, TodoPageSchema).total).toBe(0);

    const { key: writer } = await createKey(user.token, ["todos:read", "todos:write"]);
    expect((await callTool(writer, "createTodo", { title: "by a writing key" })).result.isError).toBeFalsy();
  });

  it("a key without todos:read is 403 before any MCP message is read; a revoked one 401", async () => {
    const user = await signUp();
    const { key } = await createKey(user.token, ["files:write"]);
    const refused = await rpc(key, "tools/list");
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, error: { message: LACKS("todos:read") } });
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBe("*");

    const { key: reader } = await createKey(user.token, ["todos:read"]);
    const { key: revoked, id: revokedId } = await createKey(user.token, ["todos:read"]);
    await api(`/api/keys/${revokedId}/revoke`, { method: "POST", token: user.token });
    const res = await rpc(revoked, "tools/list");
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe("API key revoked");
    expect((await rpc(reader, "tools/list")).status).toBe(200);
  });
});

describe("agents with an API key (AGENTS_REQUIRE_AUTH on)", () => {
  it("K4: agents:connect gets a counter ticket that opens a socket; a chat's also needs both todo scopes and files:read", async () => {
    const user = await signUp();
    const { key: connect } = await createKey(user.token, ["agents:connect"]);
    const counter = counterPath(freshName("key"));
    const ticket = await requestTicket(connect, "counter-agent", counter.split("/").at(-1)!);
    expect(ticket.status).toBe(201);
    const socket = await acceptSocket(
      await upgradeWith(AUTH_ON, withTicket(counter, ticket.body.data.ticket)),
    );
    socket.close();

    const chat = `user-${user.userId}`;
    expectError(await requestTicket(connect, "chat-agent", chat), 403, LACKS("todos:read"));
    const { key: reader } = await createKey(user.token, ["todos:read", "todos:write"]);
    expectError(await requestTicket(reader, "counter-agent", "lobby"), 403, LACKS("agents:connect"));
    const { key: todos } = await createKey(user.token, ["agents:connect", "todos:read", "todos:write"]);
    // The chat reads the user's files too (attachments, readFile).
    expectError(await requestTicket(todos, "chat-agent", chat), 403, LACKS("files:read"));
    const { key: full } = await createKey(user.token, [
      "agents:connect",
      "todos:read",
      "todos:write",
      "files:read",
    ]);
    expect((await requestTicket(full, "chat-agent", chat)).status).toBe(201);
  });

  it("K5: a ticket asked for with a key dies with the key; a key in ?token= is refused", async () => {
    const user = await signUp();
    const { key, id } = await createKey(user.token, ["agents:connect"]);
    const name = freshName("key");
    const { ticket } = (await requestTicket(key, "counter-agent", name)).body.data;
    await api(`/api/keys/${id}/revoke`, { method: "POST", token: user.token });
    const refused = await upgradeWith(AUTH_ON, withTicket(counterPath(name), ticket));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { message: "API key revoked" } });

    const { key: live } = await createKey(user.token, ["agents:connect"]);
    const inUrl = await upgradeWith(AUTH_ON, `${counterPath(freshName("key"))}?token=${live}`);
    expect(inUrl.status).toBe(401);
  });

  it("plain HTTP takes the key in Authorization, within its scopes", async () => {
    const user = await signUp();
    const { key: connect } = await createKey(user.token, ["agents:connect"]);
    const { key: todosOnly } = await createKey(user.token, ["todos:read"]);
    expect((await get(connect, counterPath(freshName("key")))).status).toBe(200);
    const refused = await get(todosOnly, counterPath(freshName("key")));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { message: LACKS("agents:connect") } });
    const transcript = await get(connect, `${chatPath(`user-${user.userId}`)}/get-messages`);
    expect(transcript.status).toBe(403);
  });
});
