// Loaded with the MCP SDK (serve-mcp.ts): each tool call of /mcp as an OpenTelemetry GenAI span,
// `execute_tool {name}`, the way the chat's tool calls are traced (src/ai/traced-ai.ts). Arguments and
// results stay off the span.
import { tracing } from "cloudflare:workers";
import type { TodoTool } from "../core/tools";

function traced(name: string, tool: TodoTool): TodoTool {
  return {
    ...tool,
    execute: (input) =>
      tracing.startActiveSpan(`execute_tool ${name}`, async (span) => {
        if (span.isTraced) {
          span.setAttributes({
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
            "gen_ai.tool.type": "function",
            "cloudflare.agents.integration.name": "mcp",
          });
        }
        try {
          return await tool.execute(input);
        } catch (err) {
          if (span.isTraced) {
            span.setAttribute("error.type", err instanceof Error ? err.name : typeof err);
            span.setStatus({ code: "error" });
          }
          throw err;
        } finally {
          span.end();
        }
      }),
  };
}

/** The same tools, each call traced. */
export function tracedTools(tools: Record<string, TodoTool>): Record<string, TodoTool> {
  return Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, traced(name, tool)]));
}
