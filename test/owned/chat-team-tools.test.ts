// Runs with AGENTS_REQUIRE_AUTH=true (project "workers-owned"): the chat's tools on a team's todos and
// files, called by the scripted model for each role and for an outsider, with the approval flow as ever.
import { describe, expect, it } from "vitest";
import { can } from "../../src/orgs/org-roles";
import { AuditPageSchema } from "../../src/routes/audit/audit.schemas";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { approve, ask, open, toolPart } from "../helpers/chat-tools";
import { api, expectData } from "../helpers/http";
import { teamOfFour, type Team } from "../helpers/orgs";
import { teamFileKey } from "../helpers/team-files";
import { createTodo } from "../helpers/todos";

type Actor = "owner" | "admin" | "member" | "viewer" | "outsider";
const ACTORS: Actor[] = ["owner", "admin", "member", "viewer", "outsider"];

async function teamWithOutsider(): Promise<Team & { outsider: SignedUpUser }> {
  const [team, outsider] = await Promise.all([teamOfFour(), signUp()]);
  return { ...team, outsider };
}

const script = (name: string, input: object) => `[script:tool:${name} ${JSON.stringify(input)}]`;

/** The tool part once it settled: an output, or an error. */
const settled = (user: SignedUpUser, name: string) =>
  expect
    .poll(async () => (await toolPart(user, name))?.state, { timeout: 5_000 })
    .toMatch(/^output-(available|error)$/)
    .then(() => toolPart(user, name));

describe("chat tools on a team's data (AGENTS_REQUIRE_AUTH=true)", () => {
  it("reads for every role; an approved write runs for members and up, a viewer is told why", async () => {
    const team = await teamWithOutsider();
    const { org } = team;
    const todo = await createTodo(team.owner, { title: "Team task", orgId: org.id });
    await Promise.all(
      ACTORS.map(async (actor) => {
        const user = team[actor];
        const socket = await open(user);
        await ask(socket, "r", script("listTodos", { orgId: org.id }));
        const listed = await settled(user, "listTodos");
        if (actor === "outsider") expect(listed).toMatchObject({ errorText: "Team not found" });
        else expect(listed!.output.items.map((t: { id: number }) => t.id)).toEqual([todo.id]);

        await ask(socket, "w", script("createTodo", { title: `by ${actor}`, orgId: org.id }));
        // The approval flow is the same for a team's todo: nothing runs before the user approves.
        const pending = (await toolPart(user, "createTodo"))!;
        expect(pending.state).toBe("approval-requested");
        approve(socket, pending.toolCallId, true);
        const created = await settled(user, "createTodo");
        if (actor === "outsider") expect(created).toMatchObject({ errorText: "Team not found" });
        else if (can(actor, "data:write")) {
          expect(created!.output).toMatchObject({ orgId: org.id, createdBy: user.userId });
        } else {
          expect(created).toMatchObject({
            errorText: "Your role in this team (viewer) may not change its todos (data:write)",
          });
        }
        socket.close();
      }),
    );
  });

  it("records the chat's team write as the agent's on the member's behalf, with the socket's credential", async () => {
    const { org, owner, member } = await teamOfFour();
    const socket = await open(member);
    await ask(socket, "w", script("createTodo", { title: "Via chat", orgId: org.id }));
    approve(socket, (await toolPart(member, "createTodo"))!.toolCallId, true);
    await settled(member, "createTodo");
    socket.close();
    const trail = expectData(
      await api(`/api/orgs/${org.id}/audit?actorId=${member.userId}&action=todo.created`, {
        token: owner.token,
      }),
      200,
      AuditPageSchema,
    );
    expect(trail.items).toEqual([
      expect.objectContaining({ actorId: member.userId, door: "agent", credential: "session" }),
    ]);
  });

  it("lists and reads a team's files for its members only", async () => {
    const { org, owner, viewer } = await teamOfFour();
    const outsider = await signUp();
    const key = await teamFileKey(owner.token, org.id, "team plan");
    for (const user of [viewer, outsider]) {
      const socket = await open(user);
      await ask(socket, "l", script("listFiles", { orgId: org.id }));
      await ask(socket, "f", script("readFile", { key, orgId: org.id }));
      const [listed, read] = [await settled(user, "listFiles"), await settled(user, "readFile")];
      if (user === outsider) {
        expect([listed!.errorText, read!.errorText]).toEqual(["Team not found", "Team not found"]);
      } else {
        expect(listed!.output.items.map((f: { key: string }) => f.key)).toEqual([key]);
        expect(read!.output).toMatchObject({ key, text: expect.stringContaining("team plan") });
      }
      socket.close();
    }
  });
});
