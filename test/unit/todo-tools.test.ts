import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { ToolError } from "../../src/core/tools";
import { createTodoTools, runTool } from "../../src/todos/todo-tools";
import { createLogger } from "../../src/core/logger";
import { openDatabases } from "../../src/db/databases";
import { firstRowAnywhere } from "../helpers/shards";
import { signUp } from "../helpers/auth";
import { withFaults } from "../helpers/faults";

/** The tools' writer with `d1` as the directory, as the chat and /mcp build it. */
function writerOn(d1: D1Database) {
  const logger = createLogger({ test: "todo-tools" }, "error");
  return {
    env,
    dbs: openDatabases({ ...env, DB: d1 }),
    logger,
    waitUntil: (promise: Promise<unknown>) => background.push(promise),
    actor: { actorId: null, door: "agent" as const, credential: null, ip: null, requestId: null },
  };
}
// The work a write leaves for after its answer (the feed's publish), finished before the next test.
const background: Promise<unknown>[] = [];
afterEach(() => Promise.all(background.splice(0)));

async function toolsOfNewUser() {
  const user = await signUp();
  return { user, tools: createTodoTools(writerOn(env.DB), user.userId) };
}

async function todoRow(id: number) {
  return firstRowAnywhere("SELECT * FROM todos_table WHERE id = ?", id);
}

describe("todo tools (real D1)", () => {
  it("create, get, update, complete, list with the completed filter, delete", async () => {
    const { user, tools } = await toolsOfNewUser();
    const created: any = await runTool(
      tools.createTodo,
      tools.createTodo.inputSchema.parse({ title: "Buy milk" }),
    );
    expect(created).toMatchObject({ title: "Buy milk", userId: user.userId, completed: false });
    await runTool(tools.createTodo, tools.createTodo.inputSchema.parse({ title: "Call mum" }));

    const updated: any = await runTool(tools.updateTodo, {
      id: created.id,
      expectedVersion: created.version,
      description: "2 litres",
    });
    expect(updated).toMatchObject({ id: created.id, description: "2 litres", version: created.version + 1 });
    const done: any = await runTool(tools.completeTodo, { id: created.id, expectedVersion: updated.version });
    expect(done.completed).toBe(true);
    expect(done.completedAt).toEqual(expect.any(String));

    const open: any = await runTool(tools.listTodos, tools.listTodos.inputSchema.parse({ completed: false }));
    expect(open.items.map((t: any) => t.title)).toEqual(["Call mum"]);
    const page: any = await runTool(
      tools.listTodos,
      tools.listTodos.inputSchema.parse({ pageSize: 1, page: 2 }),
    );
    expect(page).toMatchObject({ page: 2, pageSize: 1, total: 2, totalPages: 2 });
    expect(page.items.map((t: any) => t.title)).toEqual(["Buy milk"]);

    const got: any = await runTool(tools.getTodo, { id: created.id });
    expect(got.attachments).toEqual([]);
    expect(await runTool(tools.listAttachments, { id: created.id })).toEqual([]);
    expect(await runTool(tools.deleteTodo, { id: created.id, expectedVersion: got.version })).toEqual({
      id: created.id,
    });
    expect(await todoRow(created.id)).toBeNull();
  });

  it("searchTodos matches title or description and treats % and _ literally", async () => {
    const { tools } = await toolsOfNewUser();
    for (const body of [
      { title: "Quarterly report", description: "" },
      { title: "Groceries", description: "milk, REPORT card" },
      { title: "100% done", description: "" },
      { title: "a_b", description: "" },
    ]) {
      await runTool(tools.createTodo, tools.createTodo.inputSchema.parse(body));
    }
    const titles = async (text: string) =>
      ((await runTool(tools.searchTodos, { text })) as any[]).map((t) => t.title).toSorted();
    expect(await titles("report")).toEqual(["Groceries", "Quarterly report"]);
    expect(await titles("%")).toEqual(["100% done"]);
    expect(await titles("_")).toEqual(["a_b"]);
    expect(await titles("nothing like this")).toEqual([]);
  });

  it("C3: a write with an old expectedVersion is a tool error naming the current version; nothing written", async () => {
    const { tools } = await toolsOfNewUser();
    const todo: any = await runTool(tools.createTodo, tools.createTodo.inputSchema.parse({ title: "Mine" }));
    // The user edits it meanwhile (version 2); the model still holds version 1.
    await runTool(tools.updateTodo, { id: todo.id, expectedVersion: 1, title: "Edited by the user" });
    const before = await todoRow(todo.id);
    for (const [name, input] of [
      ["updateTodo", { id: todo.id, expectedVersion: 1, title: "The model's stale edit" }],
      ["completeTodo", { id: todo.id, expectedVersion: 1 }],
      ["deleteTodo", { id: todo.id, expectedVersion: 1 }],
    ] as const) {
      await expect(runTool(tools[name] as any, input), name).rejects.toThrow(
        new ToolError(
          `Todo changed since you read it: it is at version 2; read it again with getTodo (id ${todo.id}), then retry with its version`,
        ),
      );
    }
    expect(await todoRow(todo.id)).toEqual(before);
    expect(tools.updateTodo.inputSchema.safeParse({ id: 1, title: "x" }).success).toBe(false);
  });

  it("another user's todo is not found by any tool, and stays unchanged", async () => {
    const { tools: alice } = await toolsOfNewUser();
    const { tools: bob } = await toolsOfNewUser();
    const todo: any = await runTool(
      alice.createTodo,
      alice.createTodo.inputSchema.parse({ title: "Private" }),
    );
    const before = await todoRow(todo.id);
    const attempts: [keyof typeof bob, unknown][] = [
      ["getTodo", { id: todo.id }],
      ["listAttachments", { id: todo.id }],
      ["updateTodo", { id: todo.id, expectedVersion: todo.version, title: "Hacked" }],
      ["completeTodo", { id: todo.id, expectedVersion: todo.version }],
      ["deleteTodo", { id: todo.id, expectedVersion: todo.version }],
    ];
    for (const [name, input] of attempts) {
      await expect(runTool(bob[name] as any, input), name).rejects.toThrow(new ToolError("Todo not found"));
    }
    expect(((await runTool(bob.searchTodos, { text: "Private" })) as unknown[]).length).toBe(0);
    expect(await todoRow(todo.id)).toEqual(before);
  });

  it("input schemas come from the REST rules and reject wrong types; the user id is no argument", () => {
    const { createTodo, updateTodo, listTodos, getTodo } = createTodoTools(writerOn(env.DB), 1);
    expect(createTodo.inputSchema.safeParse({ title: 123 }).success).toBe(false);
    expect(createTodo.inputSchema.safeParse({ title: "   " }).success).toBe(false);
    expect(createTodo.inputSchema.safeParse({ title: "x", userId: 2 }).success).toBe(false);
    expect(createTodo.inputSchema.safeParse({ title: "x", scheduleAt: "tomorrow" }).success).toBe(false);
    expect(updateTodo.inputSchema.safeParse({ id: 1, completed: "yes" }).success).toBe(false);
    expect(listTodos.inputSchema.safeParse({ pageSize: 101 }).success).toBe(false);
    expect(getTodo.inputSchema.safeParse({ id: -1 }).success).toBe(false);
    expect(getTodo.inputSchema.safeParse({ id: "1" }).success).toBe(false);
  });

  it("reports a storage failure generically, without SQL", async () => {
    const broken = withFaults(env.DB, {
      prepare: () => {
        throw new Error("D1_ERROR: no such table: todos_table SELECT secret");
      },
    });
    const tools = createTodoTools(writerOn(broken), 1);
    await expect(runTool(tools.getTodo, { id: 1 })).rejects.toThrow(
      new ToolError("The tool failed; try again later"),
    );
  });
});
