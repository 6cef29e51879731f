import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { signUp } from "../helpers/auth";
import { createKey } from "../helpers/credentials";
import { api, expectData, request } from "../helpers/http";
import { callTool, rpc } from "../helpers/mcp";
import { grantFor, ORIGIN, RESOURCE, tokenRequest } from "../helpers/oauth";
import { storeFile } from "../helpers/uploads";
import { TodoPageSchema } from "../../src/todos/todos.schemas";

const call = (token: string, name: string, args: unknown) =>
  rpc(token, "tools/call", { name, arguments: args }, RESOURCE);

const challenge = (scope: string) =>
  `Bearer realm="mcp", error="insufficient_scope", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp", scope="${scope}"`;

describe("O7 scopes on /mcp", () => {
  it("lets a read-only grant list and read, and answers a writing tool with 403 insufficient_scope", async () => {
    const user = await signUp();
    const grant = await grantFor(user);
    expect(grant.scope).toBe("todos:read");
    const tools = await rpc(grant.access_token, "tools/list", {}, RESOURCE);
    expect(tools.status).toBe(200);
    expect((await call(grant.access_token, "listTodos", {})).status).toBe(200);

    const write = await call(grant.access_token, "createTodo", { title: "not allowed" });
    expect(write.status).toBe(403);
    expect(write.headers.get("WWW-Authenticate")).toBe(
      `Bearer realm="mcp", error="insufficient_scope", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp", scope="todos:read todos:write"`,
    );
    expect(write.body).toMatchObject({
      success: false,
      error: { message: "This grant lacks the scope todos:write" },
    });
    const todos = await api("/api/todos", { token: user.token });
    expect(expectData(todos, 200, TodoPageSchema).total).toBe(0);
  });

  it("also refuses a writing tool inside a JSON-RPC batch", async () => {
    const grant = await grantFor(await signUp());
    const res = await request(RESOURCE, {
      method: "POST",
      token: grant.access_token,
      headers: { Host: "localhost", Accept: "application/json, text/event-stream" },
      json: [
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "deleteTodo", arguments: { id: 1 } } },
      ],
    });
    expect(res.status).toBe(403);
  });

  it("lets a grant with todos:write call the writing tools; REST sees the result", async () => {
    const user = await signUp();
    const grant = await grantFor(user, { write: true });
    expect(grant.scope).toBe("todos:read todos:write");
    const created = await callTool(
      grant.access_token,
      "createTodo",
      { title: "From an AI client" },
      RESOURCE,
    );
    expect(created.result.isError).toBeFalsy();
    const todos = expectData(await api("/api/todos", { token: user.token }), 200, TodoPageSchema);
    expect(todos.items.map((todo) => todo.title)).toEqual(["From an AI client"]);
  });

  it("I8: asks a grant without files:read to step up for the files as resources, keeping the scopes it holds", async () => {
    const user = await signUp();
    const key = await storeFile(user.token, "for the assistant", "brief.txt", "text/plain");
    for (const [write, scope] of [
      [false, "todos:read files:read"],
      [true, "todos:read todos:write files:read"],
    ] as const) {
      const grant = await grantFor(user, { write });
      for (const [method, params] of [
        ["resources/list", {}],
        ["resources/read", { uri: `files:///${encodeURIComponent(key)}` }],
      ] as const) {
        const refused = await rpc(grant.access_token, method, params, RESOURCE);
        expect(refused.status).toBe(403);
        expect(refused.headers.get("WWW-Authenticate")).toBe(challenge(scope));
        expect(refused.body).toMatchObject({ error: { message: "This grant lacks the scope files:read" } });
      }
    }
    const reader = await grantFor(user, { files: true });
    expect(reader.scope).toBe("todos:read files:read");
    const read = await rpc(
      reader.access_token,
      "resources/read",
      { uri: `files:///${encodeURIComponent(key)}` },
      RESOURCE,
    );
    expect(read.body.result.contents[0].text).toBe("for the assistant");
    // Still read-only for todos: a writing tool is challenged for todos:write, keeping files:read.
    const write = await call(reader.access_token, "createTodo", { title: "no" });
    expect(write.headers.get("WWW-Authenticate")).toBe(challenge("todos:read todos:write files:read"));
  });

  it("keeps login tokens and API keys working on /mcp, as before", async () => {
    const user = await signUp();
    const key = await createKey(user.token, ["todos:read"]);
    for (const token of [user.token, key.key]) {
      expect((await rpc(token, "tools/list", {}, RESOURCE)).status).toBe(200);
    }
    // A key cannot step up through OAuth: it keeps its tool error, and no challenge.
    const write = await call(key.key, "createTodo", { title: "x" });
    expect(write.status).toBe(200);
    expect(write.body.result).toMatchObject({ isError: true });
  });
});

describe("O8 revocation", () => {
  it("answers 401 on the next call once the grant is revoked, and refuses its refresh token", async () => {
    const user = await signUp();
    const grant = await grantFor(user);
    const [listed] = (await api<any>("/api/oauth/grants", { token: user.token })).body.data.items;
    const revoked = await api(`/api/oauth/grants/${listed.id}/revoke`, { method: "POST", token: user.token });
    expect(revoked.status).toBe(200);
    const next = await rpc(grant.access_token, "tools/list", {}, RESOURCE);
    expect(next.status).toBe(401);
    expect(next.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: grant.refresh_token,
      client_id: grant.client.client_id,
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("ends every grant of a deleted user: 401 on /mcp, no refresh, nothing left in KV", async () => {
    const user = await signUp();
    const [first, second] = [await grantFor(user), await grantFor(user, { write: true })];
    expect(
      (await api(`/api/users/${user.userId}/delete`, { method: "POST", token: user.token })).status,
    ).toBe(200);
    for (const grant of [first, second]) {
      expect((await rpc(grant.access_token, "tools/list", {}, RESOURCE)).status).toBe(401);
      const refresh = await tokenRequest({
        grant_type: "refresh_token",
        refresh_token: grant.refresh_token,
        client_id: grant.client.client_id,
      });
      expect(refresh.status).toBe(400);
    }
    for (const prefix of [`grant:${user.userId}:`, `token:${user.userId}:`]) {
      expect((await env.OAUTH_KV.list({ prefix })).keys).toEqual([]);
    }
  });

  it("refuses a live grant's token once its user is gone, even if KV still held it", async () => {
    const user = await signUp();
    const grant = await grantFor(user);
    await env.DB.prepare("DELETE FROM users_table WHERE id = ?").bind(user.userId).run();
    const res = await rpc(grant.access_token, "tools/list", {}, RESOURCE);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { message: "User no longer exists" } });
  });
});
