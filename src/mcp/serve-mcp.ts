import { createMcpHandler } from "agents/mcp/server";
import type { TodoTool } from "../core/tools";
import { todoMcpServer, type McpFiles, type ToolRunner } from "./todo-mcp-server";
import { tracedTools } from "./tool-spans";

// Same bound as the /api JSON bodies; tool inputs are small.
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * One MCP request to `route`, answered by a fresh stateless server over an authenticated user's todo
 * tools and files, each tool call traced. Loaded on the first /mcp request: the MCP SDK's protocol schemas
 * cost every new isolate tens of milliseconds when built at start-up.
 */
export function serveMcp(
  route: string,
  request: Request,
  tools: Record<string, TodoTool>,
  run: ToolRunner,
  files: McpFiles,
  onError: (error: Error) => void,
): Promise<Response> {
  const handler = createMcpHandler(() => todoMcpServer(tracedTools(tools), run, files), {
    route,
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: onError,
  });
  return handler.fetch(request);
}
