import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { name as serverName, version } from "../../package.json";
// Types only: this module loads on the first /mcp request (src/mcp/mount.ts), so it names nothing of
// the Worker's own graph at run time; the tools and their runner are handed in.
import type { runTool, TodoTool } from "../todos/todo-tools";

export type ToolRunner = typeof runTool;

function result(value: unknown): CallToolResult {
  // structuredContent must be an object; lists are wrapped so every tool answers the same way.
  const structured = Array.isArray(value) ? { items: value } : (value as Record<string, unknown>);
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: structured };
}

function toolError(err: unknown): CallToolResult {
  // The runner throws only ToolErrors, whose messages are meant for the caller.
  return { isError: true, content: [{ type: "text", text: (err as Error).message }] };
}

/** A fresh MCP server (one per request, as the stateless handler wants) exposing one user's todo tools. */
export function todoMcpServer(tools: Record<string, TodoTool>, run: ToolRunner): McpServer {
  const server = new McpServer(
    { name: serverName, version },
    { instructions: "Read and change the signed-in user's todos." },
  );
  for (const [name, t] of Object.entries(tools)) {
    server.registerTool(
      name,
      {
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: {
          readOnlyHint: !t.writes,
          destructiveHint: name === "deleteTodo",
          openWorldHint: false,
        },
      },
      async (input: unknown) => {
        try {
          return result(await run(t, input));
        } catch (err) {
          return toolError(err);
        }
      },
    );
  }
  return server;
}
