import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { createKey } from "../helpers/credentials";
import { storeFile } from "../helpers/uploads";
import { RESOURCE_PAGE_SIZE, RESOURCE_READ_MAX_BYTES } from "../../src/files/file-catalog";
import { api, expectError, request, expectData } from "../helpers/http";
import { callTool, initialize, PROTOCOL, rpc } from "../helpers/mcp";
import { TodoWithAttachmentsSchema, TodoPageSchema } from "../../src/todos/todos.schemas";
import { dataDb } from "../helpers/shards";
import { ownerUuid } from "../../src/core/owner-uuids";
import { userOwner } from "../../src/core/owner";

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
  it("initializes, lists the nine tools with JSON schemas, and creates a todo seen over REST", async () => {
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
        "listTeams",
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

/** Records `count` files of `userId` straight into D1 (no objects): enough to page through. */
async function recordFiles(userId: number, count: number, size = 10) {
  // Keys as uploads make them: their UUID names the owner, whose data database holds the rows.
  const prefix = ownerUuid(userOwner(userId));
  const db = await dataDb({ userId });
  const rows = Array.from({ length: count }, (_, i) =>
    db
      .prepare(
        "INSERT INTO files_table (key, userId, originalName, size, contentType, etag, visibility) VALUES (?, ?, ?, ?, 'text/plain', 'e', 'private')",
      )
      .bind(`${prefix}-${i}.txt`, userId, `file ${i}.txt`, size),
  );
  await db.batch(rows);
  return Array.from({ length: count }, (_, i) => `${prefix}-${i}.txt`);
}

const uriOf = (key: string) => `files:///${encodeURIComponent(key)}`;

describe("/mcp: the user's files as resources", () => {
  it("lists the owner's files page by page, newest first, and refuses a made-up cursor", async () => {
    const user = await signUp();
    const keys = await recordFiles(user.userId, RESOURCE_PAGE_SIZE + 3);
    const first = (await rpc(user.token, "resources/list")).body.result;
    expect(first.resources).toHaveLength(RESOURCE_PAGE_SIZE);
    expect(first.resources[0]).toMatchObject({
      uri: uriOf(keys.at(-1)!),
      name: `file ${RESOURCE_PAGE_SIZE + 2}.txt`,
      mimeType: "text/plain",
      size: 10,
    });
    const second = (await rpc(user.token, "resources/list", { cursor: first.nextCursor })).body.result;
    expect(second.nextCursor).toBeUndefined();
    const listed = [...first.resources, ...second.resources].map((r: { uri: string }) => r.uri);
    expect(listed).toEqual(keys.toReversed().map(uriOf));
    // Another user sees none of them.
    expect((await rpc((await signUp()).token, "resources/list")).body.result.resources).toEqual([]);

    const bad = await rpc(user.token, "resources/list", { cursor: "made-up" });
    expect(bad.body.error).toMatchObject({
      code: -32602,
      message: "Invalid cursor: pass a nextCursor as given",
    });
  });

  it("I1, I6: reads text as text and anything else as a blob, the owner's only, up to the bound", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const text = await storeFile(alice.token, "# Plan\nthree steps", "plan.md", "text/markdown");
    const binary = await storeFile(
      alice.token,
      new Uint8Array([0, 1, 2, 250]),
      "raw.bin",
      "application/octet-stream",
    );
    const read = (token: string, key: string) => rpc(token, "resources/read", { uri: uriOf(key) });

    expect((await read(alice.token, text)).body.result.contents).toEqual([
      { uri: uriOf(text), mimeType: "text/markdown", text: "# Plan\nthree steps" },
    ]);
    expect((await read(alice.token, binary)).body.result.contents).toEqual([
      { uri: uriOf(binary), mimeType: "application/octet-stream", blob: btoa("\x00\x01\x02\xfa") },
    ]);
    // Bob knows the key; it is not his file (even public ones are not), and a made-up URI is none either.
    for (const [token, uri] of [
      [bob.token, uriOf(text)],
      [alice.token, `files:///${crypto.randomUUID()}`],
      [alice.token, "https://elsewhere.example/x"],
    ] as const) {
      const refused = await rpc(token, "resources/read", { uri });
      expect(refused.body.error).toMatchObject({
        code: -32602,
        message: `File not found: ${uri}`,
        data: { uri },
      });
    }
    const [huge] = await recordFiles(alice.userId, 1, RESOURCE_READ_MAX_BYTES + 1);
    expect((await read(alice.token, huge!)).body.error.message).toMatch(
      /^file 0\.txt is 4\.2 MB: resources\/read returns files up to 4 MiB\. Download it from GET \/api\/download\//,
    );
  });

  it("I7: needs files:read: an API key without it is told which scope it lacks", async () => {
    const user = await signUp();
    const key = await storeFile(user.token, "hello", "hello.txt", "text/plain");
    const { key: todosOnly } = await createKey(user.token, ["todos:read"]);
    for (const [method, params] of [
      ["resources/list", {}],
      ["resources/read", { uri: uriOf(key) }],
    ] as const) {
      const refused = await rpc(todosOnly, method, params);
      expect(refused.body.error).toMatchObject({ message: "This API key lacks the scope files:read" });
    }
    const { key: reader } = await createKey(user.token, ["todos:read", "files:read"]);
    const read = await rpc(reader, "resources/read", { uri: uriOf(key) });
    expect(read.body.result.contents[0].text).toBe("hello");
  });

  it("I9: adds resource links to a todo's own attachments (2025-06-18 on), never to another user's file", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const mine = await storeFile(alice.token, "mine", "mine.txt", "text/plain");
    const theirs = await storeFile(bob.token, "theirs", "theirs.txt", "text/plain", "public");
    const created = await api("/api/todos", {
      method: "POST",
      token: alice.token,
      json: { title: "With files", attachments: [{ fileKey: mine }, { fileKey: theirs }] },
    });
    const { id } = expectData(created, 201, TodoWithAttachmentsSchema);

    for (const tool of ["getTodo", "listAttachments"]) {
      const { result } = await callTool(alice.token, tool, { id });
      expect(result.content.filter((c: { type: string }) => c.type === "resource_link")).toEqual([
        {
          type: "resource_link",
          uri: uriOf(mine),
          name: "mine.txt",
          mimeType: "text/plain",
          size: 4,
          annotations: { lastModified: expect.any(String) },
        },
      ]);
    }
    const old = await rpc(alice.token, "tools/call", { name: "getTodo", arguments: { id } }, "/mcp", {
      "MCP-Protocol-Version": "2025-03-26",
    });
    expect(old.body.result.content.map((c: { type: string }) => c.type)).toEqual(["text"]);
  });
});
