import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { sharedWorker } from "./shared-worker";
import { signUpAt } from "./sign-up";

const worker = sharedWorker();

const register = async () => (await signUpAt(worker.url)).token;

function connect(token: string | undefined) {
  const client = new Client({ name: "e2e-mcp-client", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", worker.url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  return { client, connected: client.connect(transport) };
}

describe("/mcp with @modelcontextprotocol/sdk's client against wrangler dev", () => {
  it("initializes, lists the tools, creates a todo, and REST sees it", async () => {
    const token = await register();
    const { client, connected } = connect(token);
    await connected;
    try {
      expect(client.getServerVersion()?.name).toBe("workers-api-service");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("createTodo");

      const created = await client.callTool({ name: "createTodo", arguments: { title: "Written over MCP" } });
      expect(created.isError).toBeFalsy();
      const { id } = created.structuredContent as { id: number };

      const rest = await fetch(`${worker.url}/api/todos/${id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(rest.status).toBe(200);
      expect(await rest.json()).toMatchObject({ data: { id, title: "Written over MCP" } });

      const search = await client.callTool({ name: "searchTodos", arguments: { text: "over MCP" } });
      expect((search.structuredContent as { items: { id: number }[] }).items.map((t) => t.id)).toEqual([id]);
    } finally {
      await client.close();
    }
  });

  it("lists and reads the user's private file as a resource; a todo's attachment comes as a resource link", async () => {
    const user = await signUpAt(worker.url);
    const form = new FormData();
    form.append("visibility", "private");
    form.append("file", new Blob(["Quarterly plan: ship it."], { type: "text/markdown" }), "plan.md");
    const upload = await fetch(`${worker.url}/api/upload`, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.token}` },
      body: form,
    });
    expect(upload.status).toBe(201);
    const { key } = ((await upload.json()) as { data: { key: string } }).data;

    const { client, connected } = connect(user.token);
    await connected;
    try {
      expect(client.getServerCapabilities()?.resources).toBeDefined();
      const { resources, nextCursor } = await client.listResources();
      expect(nextCursor).toBeUndefined();
      expect(resources).toEqual([
        expect.objectContaining({ name: "plan.md", mimeType: "text/markdown", size: 24 }),
      ]);
      const read = await client.readResource({ uri: resources[0]!.uri });
      expect(read.contents).toEqual([
        { uri: resources[0]!.uri, mimeType: "text/markdown", text: "Quarterly plan: ship it." },
      ]);

      const created = await client.callTool({
        name: "createTodo",
        arguments: { title: "Review the plan" },
      });
      const { id } = created.structuredContent as { id: number };
      const attached = await fetch(`${worker.url}/api/todos/${id}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${user.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ attachments: [{ fileKey: key }] }),
      });
      expect(attached.status).toBe(200);
      const todo = await client.callTool({ name: "getTodo", arguments: { id } });
      expect(todo.content).toContainEqual(
        expect.objectContaining({ type: "resource_link", uri: resources[0]!.uri }),
      );
    } finally {
      await client.close();
    }
  });

  it("cannot connect without a valid token (401 before initialize)", async () => {
    for (const token of [undefined, "not-a-token"]) {
      const { client, connected } = connect(token);
      await expect(connected).rejects.toThrow(/401|Unauthorized|token/i);
      await client.close();
    }
  });
});
