import { tool, type ToolSet } from "ai";
import type { TodoTool } from "../core/tools";
import { runTool } from "../todos/todo-tools";

/** The todo tools for the AI SDK: reads run at once, writes wait for the user's approval. */
export function aiSdkTools(tools: Record<string, TodoTool>): ToolSet {
  return Object.fromEntries(
    Object.entries(tools).map(([name, t]) => [
      name,
      tool({
        description: t.description,
        inputSchema: t.inputSchema,
        needsApproval: t.writes,
        execute: (input) => runTool(t, input),
      }),
    ]),
  );
}
