import { z } from "@hono/zod-openapi";
import { createLogger } from "../core/logger";
import { ToolError, type TodoTool } from "../core/tools";
import * as writes from "./todo-writes";
import { listAttachments } from "./attachments.queries";
import * as queries from "./todos.queries";
import { CreateTodoBody, UpdateTodoBody } from "./todos.schemas";
import { PageQuery, pageOf, pageOffset } from "../core/paging";
import type { Owner } from "../core/owner";
import type { Db } from "../db/client";
import type { AuditActor } from "../orgs/audit.queries";
import { todoOwnerFor, type TodoAction } from "./todo-reach";
import { deniedTodoAction, findTodoPlaced, placeReach } from "./todo-places";
import { toolOrgId } from "../orgs/org-id-field";
import { TeamAccessRefused, TeamRoleChangedError } from "./team-role-check";

function defineTool<S extends z.ZodType>(tool: TodoTool<S>): TodoTool<S> {
  return tool;
}

const SEARCH_LIMIT = 20;

// Every tool takes a team: the chat's model and an MCP client act with the user's role in it.
const InTeam = z.object({
  orgId: toolOrgId("act on that team's todos with the user's role there"),
});
const TodoId = InTeam.extend({ id: z.number().int().positive().describe("The todo's id") });
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
const TEAM_HINT = "A team's todo: members and up write, viewers only read.";

// Tools take numbers and booleans as JSON; the REST query strings are coerced from text.
const ListInput = PageQuery.extend({
  completed: z.boolean().optional().describe("Only done (true) or open (false) todos"),
}).extend(InTeam.shape);
const SearchInput = InTeam.extend({
  text: z.string().trim().min(1).max(200).describe("Text to find in titles and descriptions"),
});
// Attachments are left to the REST API: a model should not pass around storage keys.
const CreateInput = CreateTodoBody.omit({ attachments: true, orgId: true }).extend(InTeam.shape);
const UpdateInput = UpdateTodoBody.omit({ attachments: true }).extend(Versioned.shape);

// Tools run in the chat agent and in /mcp alike, outside any request: their own log source.
const toolLogger = createLogger({ source: "todo-tools" }, undefined);

/**
 * Runs a tool on already validated input. Only a ToolError's message reaches the caller; anything
 * else (a D1 failure) is logged and reported generically, never with SQL or a stack.
 */
export async function runTool<S extends z.ZodType>(tool: TodoTool<S>, input: z.output<S>): Promise<unknown> {
  try {
    return await tool.execute(input);
  } catch (err) {
    if (err instanceof ToolError) throw err;
    // A team that refused the write in its own statement (a role changed since the tool's check).
    if (err instanceof TeamAccessRefused || err instanceof TeamRoleChangedError)
      throw new ToolError(err.message);
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
 * authenticated user, and is never an argument: a prompt cannot reach another user's todos. Their
 * teams' todos are in reach by role, as on REST (src/todos/todo-reach.ts); `writer.actor` names the
 * door and credential for the team's audit trail.
 */
export function createTodoTools(writer: writes.TodoWriter & { actor: AuditActor }, userId: number) {
  // Read once per tool call's Databases, whichever tool asks first.
  const reach = () => placeReach(writer.dbs, userId, true);

  /** The user, or the team `orgId` when their role may `action`, with its database: else "Team not found" or the refusal. */
  async function ownerOf(orgId: number | undefined, action: TodoAction): Promise<{ owner: Owner; db: Db }> {
    const placed = await reach();
    const named = todoOwnerFor(placed, orgId, action);
    if (!named.ok) throw new ToolError(named.message);
    return { owner: named.owner, db: placed.dbOf(named.owner) };
  }

  /** Why todo `id` is out of reach for `action`: the role's refusal for a team's todo, else "not found" (as REST's 404). */
  async function outOfReach(id: number, action: TodoAction): Promise<never> {
    throw new ToolError((await deniedTodoAction(await reach(), id, action)) ?? "Todo not found");
  }

  /** Todo `id` when the user may `action` it, with its database; with `orgId`, only that team's. */
  async function reachTodo(id: number, orgId: number | undefined, action: TodoAction) {
    if (orgId !== undefined) await ownerOf(orgId, action);
    const hit = await findTodoPlaced(await reach(), id, action);
    if (hit && (orgId === undefined || hit.todo.orgId === orgId)) return hit;
    return outOfReach(id, action);
  }

  /** Runs a write of todo `id`: null from it means out of reach, said as reachTodo() says it. */
  async function written<T>(
    id: number,
    orgId: number | undefined,
    write: () => Promise<T | null>,
  ): Promise<T> {
    if (orgId !== undefined) await reachTodo(id, orgId, "data:write");
    return (await write()) ?? outOfReach(id, "data:write");
  }

  return {
    listTodos: defineTool({
      description:
        "List the user's todos, or a team's (orgId), newest first, one page at a time; optionally only done or open ones.",
      inputSchema: ListInput,
      writes: false,
      async execute(input) {
        const { owner, db } = await ownerOf(input.orgId, "data:read");
        const { items, total } = await queries.listTodosOf(db, owner, {
          completed: input.completed,
          offset: pageOffset(input),
          limit: input.pageSize,
        });
        return pageOf(items, total, input);
      },
    }),
    searchTodos: defineTool({
      description: `Find the user's todos, or a team's (orgId), whose title or description contains some text (at most ${SEARCH_LIMIT}).`,
      inputSchema: SearchInput,
      writes: false,
      async execute({ text, orgId }) {
        const { owner, db } = await ownerOf(orgId, "data:read");
        return queries.searchTodosOf(db, owner, text, SEARCH_LIMIT);
      },
    }),
    getTodo: defineTool({
      description:
        "Read one todo by id (the user's or a team's they belong to), with its attachments and its `version` (writes need it).",
      inputSchema: TodoId,
      writes: false,
      async execute({ id, orgId }) {
        const { todo, db } = await reachTodo(id, orgId, "data:read");
        return { ...todo, attachments: await listAttachments(db, id) };
      },
    }),
    listAttachments: defineTool({
      description: "List the files attached to one todo (the user's or a team's they belong to).",
      inputSchema: TodoId,
      writes: false,
      async execute({ id, orgId }) {
        const { db } = await reachTodo(id, orgId, "data:read");
        return listAttachments(db, id);
      },
    }),
    createTodo: defineTool({
      description: `Create a todo for the user, or with orgId for that team. ${TEAM_HINT} scheduleAt is an ISO 8601 date-time for a reminder (the user's own todos only).`,
      inputSchema: CreateInput,
      writes: true,
      async execute({ orgId, ...fields }) {
        const { owner } = await ownerOf(orgId, "data:write");
        const team = owner.kind === "org" ? owner.orgId : undefined;
        const { todo } = await writes.createTodo(writer, userId, fields, [], undefined, team);
        return todo;
      },
    }),
    updateTodo: defineTool({
      description: `Change the title, description, completion or scheduleAt of a todo. ${TEAM_HINT} ${STALE_HINT}`,
      inputSchema: UpdateInput,
      writes: true,
      execute: ({ id, orgId, expectedVersion, ...fields }) =>
        written(id, orgId, () => writes.updateTodo(writer, id, userId, fields, undefined, [expectedVersion])),
    }),
    completeTodo: defineTool({
      description: `Mark a todo as done. ${TEAM_HINT} ${STALE_HINT}`,
      inputSchema: Versioned,
      writes: true,
      execute: ({ id, orgId, expectedVersion }) =>
        written(id, orgId, () =>
          writes.updateTodo(writer, id, userId, { completed: true }, undefined, [expectedVersion]),
        ),
    }),
    deleteTodo: defineTool({
      description: `Delete a todo (its attachment records go with it; stored files stay). ${TEAM_HINT} ${STALE_HINT}`,
      inputSchema: Versioned,
      writes: true,
      async execute({ id, orgId, expectedVersion }) {
        const deleted = await written(id, orgId, () =>
          writes.deleteTodo(writer, id, userId, [expectedVersion]),
        );
        return { id: deleted.id };
      },
    }),
  };
}

export type TodoTools = ReturnType<typeof createTodoTools>;
export type TodoToolName = keyof TodoTools;
