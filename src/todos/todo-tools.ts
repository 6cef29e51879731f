import { z } from "@hono/zod-openapi";
import { createLogger } from "../core/logger";
import * as writes from "./todo-writes";
import { listAttachments } from "./attachments.queries";
import * as queries from "./todos.queries";
import { CreateTodoBody, UpdateTodoBody } from "./todos.schemas";
import { PageQuery, pageOf, pageOffset } from "../core/paging";

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

function defineTool<S extends z.ZodType>(tool: TodoTool<S>): TodoTool<S> {
  return tool;
}

const SEARCH_LIMIT = 20;

const TodoId = z.object({ id: z.number().int().positive().describe("The todo's id") });
// Writes name the version they read, so a tool never overwrites an edit made since (REST's If-Match).
const Versioned = TodoId.extend({
  expectedVersion: z
    .number()
    .int()
    .positive()
    .describe("The todo's `version` as you last read it (listTodos, searchTodos or getTodo)"),
});
const STALE_HINT =
  "If the todo changed since you read it, nothing is written and the tool fails: read it again.";

// Tools take numbers and booleans as JSON; the REST query strings are coerced from text.
const ListInput = PageQuery.extend({
  completed: z.boolean().optional().describe("Only done (true) or open (false) todos"),
});
const SearchInput = z.object({
  text: z.string().trim().min(1).max(200).describe("Text to find in titles and descriptions"),
});
// Attachments are left to the REST API: a model should not pass around storage keys.
const CreateInput = CreateTodoBody.omit({ attachments: true, orgId: true });
const UpdateInput = UpdateTodoBody.omit({ attachments: true }).extend(Versioned.shape);

// Tools run in the chat agent and in /mcp alike, outside any request: their own log source.
const toolLogger = createLogger({ source: "todo-tools" }, undefined);

/** A foreign or missing id reads as "not found", exactly as REST answers 404 for it. */
function found<T>(value: T | null): T {
  if (value === null) throw new ToolError("Todo not found");
  return value;
}

/**
 * Runs a tool on already validated input. Only a ToolError's message reaches the caller; anything
 * else (a D1 failure) is logged and reported generically, never with SQL or a stack.
 */
export async function runTool<S extends z.ZodType>(tool: TodoTool<S>, input: z.output<S>): Promise<unknown> {
  try {
    return await tool.execute(input);
  } catch (err) {
    if (err instanceof ToolError) throw err;
    if (err instanceof writes.StaleVersionError) {
      throw new ToolError(
        `${err.message}; read it again with getTodo (id ${err.current.id}), then retry with its version`,
      );
    }
    toolLogger.error("tool_failed", { error: String(err) });
    throw new ToolError("The tool failed; try again later");
  }
}

/**
 * The todo tools of one user. `userId` is bound here, from the chat's owner or the MCP session's
 * authenticated user, and is never an argument: a prompt cannot reach another user's todos.
 */
export function createTodoTools(writer: writes.TodoWriter, userId: number) {
  const { db } = writer;
  const owned = async (id: number) => found(await queries.findTodoForUser(db, id, userId));

  return {
    listTodos: defineTool({
      description:
        "List the user's todos, newest first, one page at a time; optionally only done or open ones.",
      inputSchema: ListInput,
      writes: false,
      async execute(input) {
        const { items, total } = await queries.listTodosForUser(db, userId, {
          completed: input.completed,
          offset: pageOffset(input),
          limit: input.pageSize,
        });
        return pageOf(items, total, input);
      },
    }),
    searchTodos: defineTool({
      description: `Find the user's todos whose title or description contains some text (at most ${SEARCH_LIMIT}).`,
      inputSchema: SearchInput,
      writes: false,
      execute: ({ text }) => queries.searchTodosForUser(db, userId, text, SEARCH_LIMIT),
    }),
    getTodo: defineTool({
      description:
        "Read one of the user's todos by id, with its attachments and its `version` (writes need it).",
      inputSchema: TodoId,
      writes: false,
      async execute({ id }) {
        const todo = await owned(id);
        return { ...todo, attachments: await listAttachments(db, id) };
      },
    }),
    listAttachments: defineTool({
      description: "List the files attached to one of the user's todos.",
      inputSchema: TodoId,
      writes: false,
      async execute({ id }) {
        await owned(id);
        return listAttachments(db, id);
      },
    }),
    createTodo: defineTool({
      description: "Create a todo for the user. scheduleAt is an ISO 8601 date-time for a reminder.",
      inputSchema: CreateInput,
      writes: true,
      async execute(input) {
        const { todo } = await writes.createTodo(writer, userId, input);
        return todo;
      },
    }),
    updateTodo: defineTool({
      description: `Change the title, description, completion or scheduleAt of one of the user's todos. ${STALE_HINT}`,
      inputSchema: UpdateInput,
      writes: true,
      async execute({ id, expectedVersion, ...fields }) {
        return found(await writes.updateTodo(writer, id, userId, fields, undefined, [expectedVersion]));
      },
    }),
    completeTodo: defineTool({
      description: `Mark one of the user's todos as done. ${STALE_HINT}`,
      inputSchema: Versioned,
      writes: true,
      async execute({ id, expectedVersion }) {
        return found(
          await writes.updateTodo(writer, id, userId, { completed: true }, undefined, [expectedVersion]),
        );
      },
    }),
    deleteTodo: defineTool({
      description: `Delete one of the user's todos (its attachment records go with it; stored files stay). ${STALE_HINT}`,
      inputSchema: Versioned,
      writes: true,
      async execute({ id, expectedVersion }) {
        return { id: found(await writes.deleteTodo(writer, id, userId, [expectedVersion])).id };
      },
    }),
  };
}

export type TodoTools = ReturnType<typeof createTodoTools>;
export type TodoToolName = keyof TodoTools;
