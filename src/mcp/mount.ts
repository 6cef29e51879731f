import { createTodoTools, runTool } from "../ai/todo-tools";
import { authenticateHeader } from "../auth/authenticate";
import { unauthorized } from "../auth/require-auth";
import { createDb } from "../db/client";
import { MCP_CORS_HEADERS } from "../http/cors";
import type { AppRouter } from "../http/create-app";

export const MCP_PATH = "/mcp";

/**
 * `/mcp`: Streamable HTTP (stateless) exposing the todo tools of the user whose login token comes in
 * `Authorization: Bearer`. The token is checked before any MCP message is read.
 */
export function mountMcp(app: AppRouter) {
  app.all(MCP_PATH, async (c) => {
    // A CORS preflight carries no credentials and runs nothing.
    if (c.req.method === "OPTIONS") return c.body(null, 204, MCP_CORS_HEADERS);

    const auth = await authenticateHeader(c.env, c.req.header("Authorization"));
    if (!auth.ok) throw unauthorized(auth.reason, "mcp", MCP_CORS_HEADERS);
    c.set("user", auth.user);

    const logger = c.get("logger");
    const tools = createTodoTools({ env: c.env, db: createDb(c.env.DB), logger }, auth.user.id);
    // The MCP SDK loads on the first /mcp request, not in every new isolate (see serve-mcp.ts).
    const { serveMcp } = await import("./serve-mcp");
    return serveMcp(MCP_PATH, c.req.raw, tools, runTool, (error) =>
      logger.warn("mcp_error", { error: String(error) }),
    );
  });
}
