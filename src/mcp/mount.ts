import { createTodoTools, runTool, ToolError, type TodoTool } from "../ai/todo-tools";
import { authenticateHeader } from "../auth/authenticate";
import { noteKeyUse } from "../auth/key-auth";
import { unauthorized } from "../auth/require-auth";
import { missingScope, requireScopes } from "../auth/scopes";
import { createDb } from "../db/client";
import { MCP_CORS_HEADERS } from "../http/cors";
import type { AppRouter } from "../http/create-app";
import type { Credential } from "../http/types";

export const MCP_PATH = "/mcp";

/** The tools as `credential` may use them: an API key without `todos:write` is refused every writing tool. */
function scopedTools(tools: Record<string, TodoTool>, credential: Credential): Record<string, TodoTool> {
  const missing = missingScope(credential, ["todos:write"]);
  if (!missing) return tools;
  const refuse = async () => {
    throw new ToolError(`This API key lacks the scope ${missing}`);
  };
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [name, tool.writes ? { ...tool, execute: refuse } : tool]),
  );
}

/**
 * `/mcp`: Streamable HTTP (stateless) exposing the todo tools of the user whose login token, or API key
 * with `todos:read`, comes in `Authorization: Bearer`. The credential is checked before any MCP message is read.
 */
export function mountMcp(app: AppRouter) {
  app.all(MCP_PATH, async (c) => {
    // A CORS preflight carries no credentials and runs nothing.
    if (c.req.method === "OPTIONS") return c.body(null, 204, MCP_CORS_HEADERS);

    const auth = await authenticateHeader(c.env, c.req.header("Authorization"));
    if (!auth.ok) throw unauthorized(auth.reason, "mcp", MCP_CORS_HEADERS);
    requireScopes(auth.credential, ["todos:read"], MCP_CORS_HEADERS);
    c.set("user", auth.user);

    const logger = c.get("logger");
    const db = createDb(c.env.DB);
    await noteKeyUse(db, auth.credential);
    const tools = createTodoTools({ env: c.env, db, logger }, auth.user.id);
    // The MCP SDK loads on the first /mcp request, not in every new isolate (see serve-mcp.ts).
    const { serveMcp } = await import("./serve-mcp");
    return serveMcp(MCP_PATH, c.req.raw, scopedTools(tools, auth.credential), runTool, (error) =>
      logger.warn("mcp_error", { error: String(error) }),
    );
  });
}
