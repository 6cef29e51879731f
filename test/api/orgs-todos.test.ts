// A team's todos over REST: every todo route called by each role and by an outsider answers as the one
// table of roles says (data:read, data:write), personal lists stay personal, and each team syncs alone.
import { describe, expect, it } from "vitest";
import { can, type OrgAction } from "../../src/orgs/org-roles";
import { AuditPageSchema } from "../../src/routes/audit/audit.schemas";
import {
  DeletedTodoSchema,
  TodoChangesSchema,
  TodoWithAttachmentsSchema,
} from "../../src/todos/todos.schemas";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { api, expectData, expectError } from "../helpers/http";
import { createTeam, join, teamOfFour, type Team } from "../helpers/orgs";
import { countEverywhere } from "../helpers/shards";
import { createTodo, pageOf, storedKey, todoOf, updated } from "../helpers/todos";

type Actor = "owner" | "admin" | "member" | "viewer" | "outsider";
const ACTORS: Actor[] = ["owner", "admin", "member", "viewer", "outsider"];

/** The status a route answers `actor`: its success for a role that may, 403 for one that may not, 404 for outsiders. */
const expected = (actor: Actor, action: OrgAction, success: number) =>
  actor === "outsider" ? 404 : can(actor, action) ? success : 403;

async function teamWithOutsider(): Promise<Team & { outsider: SignedUpUser }> {
  const [team, outsider] = await Promise.all([teamOfFour(), signUp()]);
  return { ...team, outsider };
}

const teamTodo = (user: SignedUpUser, orgId: number, body: Record<string, unknown> = {}) =>
  createTodo(user, { title: "Team task", ...body, orgId });

/** How many rows `sql` counts for one id (a team's, a todo's), in every database that may hold them. */
const rows = (sql: string, id: number) => countEverywhere(sql, id);

const syncOf = (token: string, query: string) =>
  api(`/api/todos?${query}`, { token }).then((res) => expectData(res, 200, TodoChangesSchema));

describe("team todos: the role-by-route matrix", () => {
  // A team's create and list check the role in their own statement, against the team's data database's copy
  // of it (src/orgs/team-role-copies.ts), which every role change and removal blanks in D1: no isolate's
  // memory is involved, so a change made through any isolate counts at the next request.
  it("Y10: a removal or a role change counts at the member's next create and list", async () => {
    const { org, owner, member, viewer } = await teamOfFour();
    const create = (user: SignedUpUser, title: string) =>
      api("/api/todos", { method: "POST", token: user.token, json: { title, orgId: org.id } });
    const list = (user: SignedUpUser) => api(`/api/todos?orgId=${org.id}`, { token: user.token });
    // Each has their role copied by their first create or list.
    expectData(await create(member, "Before"), 201, TodoWithAttachmentsSchema);
    expect((await list(member)).status).toBe(200);
    expectError(await create(viewer, "A viewer's"), 403, /may not change/);
    expect((await list(viewer)).status).toBe(200);
    const members = `/api/orgs/${org.id}/members`;
    expect(
      (await api(`${members}/${member.userId}/delete`, { method: "POST", token: owner.token })).status,
    ).toBe(200);
    const promote = { method: "POST", token: owner.token, json: { role: "member" } } as const;
    expect((await api(`${members}/${viewer.userId}`, promote)).status).toBe(200);
    expectError(await create(member, "After the removal"), 404, "Team not found");
    expectError(await list(member), 404, "Team not found");
    expect(await rows("SELECT count(*) AS n FROM todos_table WHERE orgId = ?", org.id)).toBe(1);
    // A role granted writes at once, too; taken back, it refuses at once.
    expectData(await create(viewer, "Now a member"), 201, TodoWithAttachmentsSchema);
    const demote = { method: "POST", token: owner.token, json: { role: "viewer" } } as const;
    expect((await api(`${members}/${viewer.userId}`, demote)).status).toBe(200);
    expectError(await create(viewer, "A viewer again"), 403, /may not change/);
    expect((await list(viewer)).status).toBe(200);
    expect(await rows("SELECT count(*) AS n FROM todos_table WHERE orgId = ?", org.id)).toBe(2);
  });

  it("creates with orgId by role: members and up 201, viewers 403 saying why, outsiders 404", async () => {
    const team = await teamWithOutsider();
    for (const actor of ACTORS) {
      const res = await api("/api/todos", {
        method: "POST",
        token: team[actor].token,
        json: { title: `by ${actor}`, orgId: team.org.id },
      });
      const status = expected(actor, "data:write", 201);
      if (status === 201) {
        const todo = expectData(res, 201, TodoWithAttachmentsSchema);
        expect(todo).toMatchObject({ orgId: team.org.id, userId: null, createdBy: team[actor].userId });
        expect(todo.createdByUser).toEqual({ id: team[actor].userId, username: team[actor].username });
      } else if (status === 403) {
        expectError(res, 403, "Your role in this team (viewer) may not change its todos (data:write)");
      } else {
        expectError(res, 404, "Team not found");
      }
    }
  });

  it("reads, lists, updates (with attachments), deletes and restores by role", async () => {
    const team = await teamWithOutsider();
    const key = await storedKey("plan.txt");
    for (const actor of ACTORS) {
      const token = team[actor].token;
      const todo = await teamTodo(team.owner, team.org.id);

      const read = await api(`/api/todos/${todo.id}`, { token });
      expect(read.status, `${actor} reads`).toBe(expected(actor, "data:read", 200));
      const list = await api(`/api/todos?orgId=${team.org.id}&pageSize=100`, { token });
      expect(list.status, `${actor} lists`).toBe(expected(actor, "data:read", 200));
      if (list.status === 200) expect(pageOf(list).items.map((t) => t.id)).toContain(todo.id);

      const change = await api(`/api/todos/${todo.id}`, {
        method: "POST",
        token,
        json: { completed: true, attachments: [{ fileKey: key }] },
      });
      expect(change.status, `${actor} updates`).toBe(expected(actor, "data:write", 200));
      if (change.status === 200) {
        const changed = todoOf(change);
        expect(changed.attachments.map((a) => a.fileKey)).toEqual([key]);
        expect(changed.updatedByUser).toEqual({ id: team[actor].userId, username: team[actor].username });
        expect(changed.createdByUser?.id).toBe(team.owner.userId);
      }
      if (change.status === 403) expectError(change, 403, /\(viewer\) may not change its todos/);

      const remove = await api(`/api/todos/${todo.id}/delete`, { method: "POST", token });
      expect(remove.status, `${actor} deletes`).toBe(expected(actor, "data:write", 200));
      if (remove.status !== 200) {
        // The owner deletes it, so each actor's restore meets a deleted todo.
        expectData(
          await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: team.owner.token }),
          200,
          DeletedTodoSchema,
        );
      }
      const restore = await api(`/api/todos/${todo.id}/restore`, { method: "POST", token });
      expect(restore.status, `${actor} restores`).toBe(expected(actor, "data:write", 200));
      if (restore.status === 200) expect(todoOf(restore)).toMatchObject({ id: todo.id, orgId: team.org.id });
    }
  });

  it("answers 412 to a member whose If-Match names a version another member changed", async () => {
    const { org, member, admin } = await teamOfFour();
    const todo = await teamTodo(member, org.id);
    const etag = `"todo-${todo.id}-v1"`;
    await updated(admin, todo.id, { title: "Admin was first" });
    const stale = await api(`/api/todos/${todo.id}`, {
      method: "POST",
      token: member.token,
      headers: { "If-Match": etag },
      json: { title: "Member's edit" },
    });
    expectError(stale, 412, /at version 2/);
    expect(stale.headers.get("ETag")).toBe(`"todo-${todo.id}-v2"`);
    const gone = await api(`/api/todos/${todo.id}/delete`, {
      method: "POST",
      token: member.token,
      headers: { "If-Match": etag },
    });
    expectError(gone, 412);
    expect(todoOf(await api(`/api/todos/${todo.id}`, { token: member.token })).title).toBe("Admin was first");
  });

  it("refuses a malformed orgId with 400 and a team's todo to a user with no team with 404", async () => {
    const [{ org, owner }, loner] = await Promise.all([teamOfFour(), signUp()]);
    for (const orgId of ["0", "-1", "x", "1.5", "99999999999999999"]) {
      expectError(await api(`/api/todos?orgId=${orgId}`, { token: owner.token }), 400);
    }
    for (const orgId of [0, -1, "7", 1.5]) {
      const res = await api("/api/todos", {
        method: "POST",
        token: owner.token,
        json: { title: "x", orgId },
      });
      expectError(res, 400);
    }
    const todo = await teamTodo(owner, org.id);
    expectError(await api(`/api/todos/${todo.id}`, { token: loner.token }), 404, "Todo not found");
    expectError(await api(`/api/todos?orgId=${org.id}`, { token: loner.token }), 404, "Team not found");
  });
});

describe("team todos beside personal ones", () => {
  it("never lists a team's todo in a personal list, and counts each list apart", async () => {
    const { org, member } = await teamOfFour();
    const mine = await createTodo(member, { title: "Mine", completed: true });
    const theirs = await teamTodo(member, org.id);
    const personal = pageOf(await api("/api/todos", { token: member.token }));
    expect(personal.items.map((t) => t.id)).toEqual([mine.id]);
    expect(personal.total).toBe(1);
    expect(personal.items[0]).toMatchObject({ orgId: null, userId: member.userId, createdBy: member.userId });
    expect(pageOf(await api(`/api/users/${member.userId}/todos`, { token: member.token })).total).toBe(1);
    const done = pageOf(await api("/api/todos?completed=true", { token: member.token }));
    expect(done.total).toBe(1);
    const shared = pageOf(await api(`/api/todos?orgId=${org.id}&completed=false`, { token: member.token }));
    expect(shared.items.map((t) => t.id)).toEqual([theirs.id]);
    expect(shared.total).toBe(1);
  });

  it("syncs each team with a cursor of its own, which no other list accepts", async () => {
    const [a, b] = await Promise.all([teamOfFour(), teamOfFour()]);
    // a.member also joins team b, so every list below is theirs to read.
    const inB = a.member;
    await join(b.owner, b.org.id, inB, "viewer");
    const first = await teamTodo(a.owner, a.org.id);
    const sync = await syncOf(inB.token, `orgId=${a.org.id}&updatedSince=0`);
    expect(sync.changes.map((c) => [c.type, c.id])).toEqual([["todo.created", first.id]]);
    expect(sync.changes[0]!.todo).toMatchObject({ orgId: a.org.id, createdByUser: { id: a.owner.userId } });

    await updated(a.admin, first.id, { completed: true });
    const next = await syncOf(inB.token, `orgId=${a.org.id}&updatedSince=${sync.cursor}`);
    expect(next.changes.map((c) => [c.type, c.id, c.version])).toEqual([["todo.updated", first.id, 2]]);
    // Another member's cursor for the same team is the same position: a team's log is the team's.
    expect(
      (await syncOf(a.viewer.token, `orgId=${a.org.id}&updatedSince=${sync.cursor}`)).changes,
    ).toHaveLength(1);

    for (const query of [`updatedSince=${sync.cursor}`, `orgId=${b.org.id}&updatedSince=${sync.cursor}`]) {
      expectError(await api(`/api/todos?${query}`, { token: inB.token }), 400, /Invalid cursor/);
    }
    const own = await createTodo(inB, { title: "Own" });
    const personal = await syncOf(inB.token, "updatedSince=0");
    expect(personal.changes.map((c) => c.id)).toEqual([own.id]);
    expectError(
      await api(`/api/todos?orgId=${a.org.id}&updatedSince=${personal.cursor}`, { token: inB.token }),
      400,
    );
    expectError(await api(`/api/todos?orgId=${a.org.id}&updatedSince=0`, { token: b.owner.token }), 404);
  });

  it("records each team write in the team's audit trail with the door and credential", async () => {
    const { org, owner, member } = await teamOfFour();
    const todo = await teamTodo(member, org.id);
    await updated(member, todo.id, { title: "Renamed" });
    await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: member.token });
    await api(`/api/todos/${todo.id}/restore`, { method: "POST", token: member.token });
    await createTodo(member, { title: "Personal: not in the team's trail" });
    const trail = expectData(
      await api(`/api/orgs/${org.id}/audit?actorId=${member.userId}`, { token: owner.token }),
      200,
      AuditPageSchema,
    );
    const entries = trail.items.filter((e) => e.action.startsWith("todo."));
    expect(entries.map((e) => e.action)).toEqual([
      "todo.restored",
      "todo.deleted",
      "todo.updated",
      "todo.created",
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ target: `todo-${todo.id}`, door: "rest", credential: "session" });
    }
  });

  it("a member who leaves keeps nothing of the team; the team keeps their work, nameless once they go", async () => {
    const { org, owner, member } = await teamOfFour();
    const todo = await teamTodo(member, org.id);
    const left = await api(`/api/orgs/${org.id}/members/${member.userId}/delete`, {
      method: "POST",
      token: member.token,
    });
    expect(left.status).toBe(200);
    expectError(await api(`/api/todos/${todo.id}`, { token: member.token }), 404);
    expectError(await api(`/api/todos?orgId=${org.id}`, { token: member.token }), 404);
    expect(pageOf(await api("/api/todos", { token: member.token })).total).toBe(0);
    expect(todoOf(await api(`/api/todos/${todo.id}`, { token: owner.token })).createdBy).toBe(member.userId);
    expect(
      (await api(`/api/users/${member.userId}/delete`, { method: "POST", token: member.token })).status,
    ).toBe(200);
    const kept = todoOf(await api(`/api/todos/${todo.id}`, { token: owner.token }));
    expect(kept).toMatchObject({ id: todo.id, createdBy: null, createdByUser: null, orgId: org.id });
  });

  it("deleting the team erases its todos, their attachment rows, trash and change log", async () => {
    const owner = await signUp();
    const org = await createTeam(owner.token);
    const kept = await teamTodo(owner, org.id, { attachments: [{ fileKey: await storedKey() }] });
    const trashed = await teamTodo(owner, org.id);
    await api(`/api/todos/${trashed.id}/delete`, { method: "POST", token: owner.token });
    const mine = await createTodo(owner, { title: "Stays" });
    const gone = await api(`/api/orgs/${org.id}/delete`, { method: "POST", token: owner.token });
    expect((gone.body as { data: { erased: { todos: number } } }).data.erased.todos).toBe(2);
    expect(await rows("SELECT count(*) AS n FROM todos_table WHERE orgId = ?", org.id)).toBe(0);
    expect(await rows("SELECT count(*) AS n FROM deleted_todos_table WHERE orgId = ?", org.id)).toBe(0);
    expect(await rows("SELECT count(*) AS n FROM todo_changes_table WHERE orgId = ?", org.id)).toBe(0);
    expect(await rows("SELECT count(*) AS n FROM todo_attachments_table WHERE todoId = ?", kept.id)).toBe(0);
    expect(await rows("SELECT count(*) AS n FROM org_todo_counts_table WHERE orgId = ?", org.id)).toBe(0);
    expect(todoOf(await api(`/api/todos/${mine.id}`, { token: owner.token })).title).toBe("Stays");
  });
});
