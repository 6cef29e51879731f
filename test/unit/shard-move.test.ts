import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { userOwner } from "../../src/core/owner";
import { signUp } from "../helpers/auth";
import { createLink } from "../helpers/files";
import { api } from "../helpers/http";
import { expectMoved, finishedMove, moverOf, rowCount, workspaceOf, workspaceRows } from "../helpers/shards";
import { createTodo, storedKey } from "../helpers/todos";
import { storeFile } from "../helpers/uploads";

/** A user with todos (one with an attachment, one completed, one deleted), a file with a share link and a note. */
async function userWithData() {
  const user = await signUp();
  const owner = userOwner(user.userId);
  const first = await createTodo(user, { title: "first", attachments: [{ fileKey: await storedKey() }] });
  const second = await createTodo(user, { title: "second" });
  await api(`/api/todos/${second.id}`, { method: "POST", token: user.token, json: { completed: true } });
  const third = await createTodo(user, { title: "third" });
  await api(`/api/todos/${third.id}`, { method: "DELETE", token: user.token });
  const key = await storeFile(user.token, "bytes", "a.txt", "text/plain");
  await createLink(user.token, key);
  await api("/api/notes", { method: "POST", token: user.token, json: { text: "a note" } });
  return { user, owner, todos: [first, second, third], key };
}

describe("moving a workspace between data databases", () => {
  it("moves a workspace made before shards out of the directory, rows and ids unchanged", async () => {
    const { owner } = await userWithData();
    const workspace = await workspaceOf(owner);
    const source = workspace.shard;
    const target = source === "DB_SHARD_0" ? "DB_SHARD_1" : "DB_SHARD_0";
    const before = await workspaceRows(source, owner);
    expect(before.todos_table!.length).toBeGreaterThanOrEqual(2);
    expect(before.todo_changes_table!.length).toBeGreaterThanOrEqual(4);
    expect(before.file_links_table).toHaveLength(1);

    const started = await moverOf(workspace.id).start({ workspaceId: workspace.id, owner, source, target });
    expect(started.status).toBe("started");
    expectMoved(await finishedMove(workspace.id));

    expect(await workspaceRows(target, owner)).toEqual(before);
    expect(await rowCount(source, owner)).toBe(0);
    const after = await workspaceOf(owner);
    expect(after).toMatchObject({ shard: target, state: "ready", targetShard: null, version: workspace.version + 2 });
  });
});
