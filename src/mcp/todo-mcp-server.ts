import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { name as serverName, version } from "../../package.json";
import { runTool, ToolError, type TodoTool } from "../ai/todo-tools";

function result(value: unknown): CallToolResult {
  // structuredContent must be an object; lists are wrapped so every tool answers the same way.
  const structured = Array.isArray(value) ? { items: value } : (value as Record<string, unknown>);
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: structured };
}

function toolError(err: ToolError): CallToolResult {
  return { isError: true, content: [{ type: "text", text: err.message }] };
}

/** A fresh MCP server (one per request, as the stateless handler wants) exposing one user's todo tools. */
export function todoMcpServer(tools: Record<string, TodoTool>): McpServer {
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
          return result(await runTool(t, input));
        } catch (err) {
          // runTool throws only ToolErrors: anything else was logged and made generic there.
          return toolError(err as ToolError);
        }
      },
    );
  }
  return server;
}
