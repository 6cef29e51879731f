import { createMcpHandler } from "agents/mcp/server";
import { createTodoTools } from "../ai/todo-tools";
import type { TodoWriter } from "../todos/todo-writes";
import { todoMcpServer } from "./todo-mcp-server";

// Same bound as the /api JSON bodies; tool inputs are small.
const MAX_BODY_BYTES = 1024 * 1024;

/** One MCP request to `route` by an authenticated user, answered by a fresh stateless server over their todo tools. */
export function serveMcp(
  route: string,
  request: Request,
  writer: TodoWriter,
  userId: number,
): Promise<Response> {
  const tools = createTodoTools(writer, userId);
  const handler = createMcpHandler(() => todoMcpServer(tools), {
    route,
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (error) => writer.logger.warn("mcp_error", { error: String(error) }),
  });
  return handler.fetch(request);
}
