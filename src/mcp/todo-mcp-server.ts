import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { name as serverName, version } from "../../package.json";
// Types only: this module loads on the first /mcp request (src/mcp/mount.ts), so it names nothing of
// the Worker's own graph at run time; the tools, their runner and the user's files are handed in.
import type { TodoTool } from "../core/tools";
import type { runTool } from "../todos/todo-tools";
import { resourceLink, serveFileResources, type FileResources } from "./file-resources";

export type ToolRunner = typeof runTool;

/** The user's files as resources; `links` adds resource links to tool answers (protocol 2025-06-18 on). */
export interface McpFiles extends FileResources {
  links: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/** The attachment keys in a tool's answer: a todo's `attachments`, or a list of attachments. */
function attachmentKeys(value: unknown): string[] {
  const attachments = Array.isArray(value) ? value : isObject(value) ? value.attachments : undefined;
  if (!Array.isArray(attachments)) return [];
  return attachments.flatMap((a) => (isObject(a) && typeof a.fileKey === "string" ? [a.fileKey] : []));
}

async function result(value: unknown, files: McpFiles): Promise<CallToolResult> {
  // structuredContent must be an object; lists are wrapped so every tool answers the same way.
  const structured = Array.isArray(value) ? { items: value } : (value as Record<string, unknown>);
  const keys = files.links ? attachmentKeys(value) : [];
  // Links are an extra: a failed lookup leaves them out rather than fail a tool that has already run.
  const entries = keys.length > 0 ? await files.catalog.entriesOf(keys).catch(() => []) : [];
  const links = entries.map(resourceLink);
  return {
    content: [{ type: "text", text: JSON.stringify(value) }, ...links],
    structuredContent: structured,
  };
}

function toolError(err: unknown): CallToolResult {
  // The runner throws only ToolErrors, whose messages are meant for the caller.
  return { isError: true, content: [{ type: "text", text: (err as Error).message }] };
}

/** A fresh MCP server (one per request, as the stateless handler wants): one user's todo tools and files. */
export function todoMcpServer(tools: Record<string, TodoTool>, run: ToolRunner, files: McpFiles): McpServer {
  const server = new McpServer(
    { name: serverName, version },
    {
      instructions:
        "Read and change the signed-in user's todos, and their teams' (listTeams, then orgId) with their role " +
        "there; read their files and their teams' as resources.",
    },
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
        let value: unknown;
        try {
          value = await run(t, input);
        } catch (err) {
          return toolError(err);
        }
        return result(value, files);
      },
    );
  }
  serveFileResources(server, files);
  return server;
}
