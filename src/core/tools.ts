import type { z } from "@hono/zod-openapi";

// What every tool module (todos, files, teams) builds on, below all of them.

/** A failure the caller (model or MCP client) can act on; its message is shown as is. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}

/** One tool, independent of who calls it: the chat (AI SDK) or an MCP client. */
export interface TodoTool<S extends z.ZodType = z.ZodType> {
  description: string;
  inputSchema: S;
  /** Writing tools wait for the user's approval in the chat. */
  writes: boolean;
  execute(input: z.output<S>): Promise<unknown>;
}
