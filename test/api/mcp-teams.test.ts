// A team's todos and files through /mcp: each tool called by each role and by an outsider answers as the
// one table of roles says, resources list the teams' files, and a team write is in its trail as MCP's.
import { describe, expect, it } from "vitest";
import { fileResourceUri } from "../../src/files/file-urls";
import { can } from "../../src/orgs/org-roles";
import { AuditPageSchema } from "../../src/routes/audit/audit.schemas";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { createKey } from "../helpers/credentials";
import { api, expectData } from "../helpers/http";
import { callTool, rpc } from "../helpers/mcp";
import { teamOfFour, type Team } from "../helpers/orgs";
import { teamFileKey } from "../helpers/team-files";
import { createTodo } from "../helpers/todos";

type Actor = "owner" | "admin" | "member" | "viewer" | "outsider";
const ACTORS: Actor[] = ["owner", "admin", "member", "viewer", "outsider"];
const VIEWER_REFUSAL = "Your role in this team (viewer) may not change its todos (data:write)";

async function teamWithOutsider(): Promise<Team & { outsider: SignedUpUser }> {
  const [team, outsider] = await Promise.all([teamOfFour(), signUp()]);
  return { ...team, outsider };
}

/** A tool's answer: its value, or its error's text. */
async function tool(token: string, name: string, args: unknown) {
  const { result } = await callTool(token, name, args);
  return result.isError
    ? { error: result.content[0].text as string }
    : { value: result.structuredContent as Record<string, any> };
}

describe("/mcp: a team's todos by role", () => {
  it("reads for every role, writes for members and up; a viewer is told why, an outsider sees nothing", async () => {
    const team = await teamWithOutsider();
    const { org } = team;
    const todo = await createTodo(team.owner, { title: "Team task", orgId: org.id });
    for (const actor of ACTORS) {
      const { token } = team[actor];
      const listed = await tool(token, "listTodos", { orgId: org.id });
      const got = await tool(token, "getTodo", { id: todo.id });
      const created = await tool(token, "createTodo", { title: `by ${actor}`, orgId: org.id });
      if (actor === "outsider") {
        expect([listed, got, created]).toEqual([
          { error: "Team not found" },
          { error: "Todo not found" },
          { error: "Team not found" },
        ]);
        continue;
      }
      expect(listed.value!.items.map((t: { id: number }) => t.id)).toContain(todo.id);
      expect(got.value).toMatchObject({ id: todo.id, orgId: org.id });
      if (can(actor, "data:write")) {
        expect(created.value).toMatchObject({ orgId: org.id, userId: null, createdBy: team[actor].userId });
      } else {
        expect(created).toEqual({ error: VIEWER_REFUSAL });
      }
    }
  });

  it("changes and deletes a team's todo for members and up, by id alone or naming its team", async () => {
    const team = await teamWithOutsider();
    const { org } = team;
    for (const actor of ACTORS) {
      const todo = await createTodo(team.owner, { title: "To close", orgId: org.id });
      const { token } = team[actor];
      const completed = await tool(token, "completeTodo", { id: todo.id, expectedVersion: 1 });
      const deleted = await tool(token, "deleteTodo", { id: todo.id, orgId: org.id, expectedVersion: 2 });
      if (actor === "outsider") {
        expect([completed, deleted]).toEqual([{ error: "Todo not found" }, { error: "Team not found" }]);
      } else if (can(actor, "data:write")) {
        expect(completed.value).toMatchObject({
          id: todo.id,
          completed: true,
          updatedBy: team[actor].userId,
        });
        expect(deleted.value).toEqual({ id: todo.id });
      } else {
        expect([completed, deleted]).toEqual([{ error: VIEWER_REFUSAL }, { error: VIEWER_REFUSAL }]);
      }
    }
  });

  it("keeps lists apart: a team's todo is not found under another team, nor in the personal list", async () => {
    const [a, b] = await Promise.all([teamOfFour(), teamOfFour()]);
    const todo = await createTodo(a.owner, { title: "A's", orgId: a.org.id });
    // a.owner is no member of b: b's id names a team they are not in.
    expect(await tool(a.owner.token, "getTodo", { id: todo.id, orgId: b.org.id })).toEqual({
      error: "Team not found",
    });
    const personal = await tool(a.owner.token, "listTodos", {});
    expect(personal.value!.items.map((t: { id: number }) => t.id)).not.toContain(todo.id);
    const search = await tool(a.owner.token, "searchTodos", { text: "A's", orgId: a.org.id });
    expect(search.value!.items.map((t: { id: number }) => t.id)).toEqual([todo.id]);
  });

  it("lists the user's teams with their role", async () => {
    const team = await teamOfFour();
    const listed = await tool(team.viewer.token, "listTeams", {});
    expect(listed.value!.items).toEqual([{ id: team.org.id, name: team.org.name, role: "viewer" }]);
  });

  it("records a team write as MCP's, with the credential: a session, then an API key", async () => {
    const { org, owner, member } = await teamOfFour();
    await tool(member.token, "createTodo", { title: "By session", orgId: org.id });
    const { key } = await createKey(member.token, ["todos:read", "todos:write"]);
    await tool(key, "createTodo", { title: "By key", orgId: org.id });
    const trail = expectData(
      await api(`/api/orgs/${org.id}/audit?actorId=${member.userId}&action=todo.created`, {
        token: owner.token,
      }),
      200,
      AuditPageSchema,
    );
    expect(trail.items.map(({ door, credential }) => ({ door, credential }))).toEqual([
      { door: "mcp", credential: "api_key" },
      { door: "mcp", credential: "session" },
    ]);
  });
});

describe("/mcp: a team's files as resources", () => {
  it("lists and reads the teams' files for every member with files:read; an outsider sees none", async () => {
    const team = await teamWithOutsider();
    const key = await teamFileKey(team.owner.token, team.org.id, "team plan");
    const uri = fileResourceUri(key);
    for (const actor of ACTORS) {
      const { key: apiKey } = await createKey(team[actor].token, ["todos:read", "files:read"]);
      const listed = (await rpc(apiKey, "resources/list")).body.result.resources as { uri: string }[];
      const read = await rpc(apiKey, "resources/read", { uri });
      if (actor === "outsider") {
        expect(listed.map((r) => r.uri)).not.toContain(uri);
        expect(read.body.error).toBeDefined();
      } else {
        expect(listed.map((r) => r.uri)).toContain(uri);
        expect(read.body.result.contents).toEqual([{ uri, mimeType: "text/plain", text: "team plan" }]);
      }
    }
  });
});
