import { createMcpHandler } from "agents/mcp/server";
import { syncTodoReminder } from "../todos/reminders";
import { createTodoTools } from "../ai/todo-tools";
import { AUTH_FAILURE_MESSAGES, authenticate } from "../auth/authenticate";
import { bearerToken } from "../http/bearer";
import { createDb } from "../db/client";
import type { AppRouter } from "../http/create-app";
import { ApiError } from "../http/errors";
import { todoMcpServer } from "./todo-mcp-server";

export const MCP_PATH = "/mcp";
// Same bound as the /api JSON bodies; tool inputs are small.
const MAX_BODY_BYTES = 1024 * 1024;

// Tokens travel in a header, never in cookies, so `*` is safe (as on /agents).
const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Allow-Headers":
    "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, mcp-session-id",
  "Access-Control-Max-Age": "86400",
};

function unauthorized(message: string, tokenSent: boolean): ApiError {
  const challenge = tokenSent ? 'Bearer realm="mcp", error="invalid_token"' : 'Bearer realm="mcp"';
  return new ApiError(401, message, undefined, { ...CORS_HEADERS, "WWW-Authenticate": challenge });
}

/**
 * `/mcp`: Streamable HTTP (stateless) exposing the todo tools of the user whose login token comes in
 * `Authorization: Bearer`. The token is checked before any MCP message is read.
 */
export function mountMcp(app: AppRouter) {
  app.all(MCP_PATH, async (c) => {
    // A CORS preflight carries no credentials and runs nothing.
    if (c.req.method === "OPTIONS") return c.body(null, 204, CORS_HEADERS);

    const header = c.req.header("Authorization");
    if (!header) throw unauthorized("Missing bearer token", false);
    const token = bearerToken(header);
    if (!token) throw unauthorized("Malformed Authorization header, expected: Bearer <token>", true);
    const auth = await authenticate(c.env, token);
    if (!auth.ok) throw unauthorized(AUTH_FAILURE_MESSAGES[auth.reason], true);
    c.set("user", auth.user);

    const logger = c.get("logger");
    const tools = createTodoTools(createDb(c.env.DB), auth.user.id, (todo) =>
      syncTodoReminder(c.env, logger, todo),
    );
    const handler = createMcpHandler(() => todoMcpServer(tools), {
      route: MCP_PATH,
      maxRequestBodySize: MAX_BODY_BYTES,
      onerror: (error) => c.get("logger").warn("mcp_error", { error: String(error) }),
    });
    return handler.fetch(c.req.raw);
  });
}
