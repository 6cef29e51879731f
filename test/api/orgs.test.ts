import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { api, expectData, expectError } from "../helpers/http";
import { fetchWithEnv } from "../helpers/storage";
import { createTeam, join, teamOfFour } from "../helpers/orgs";
import {
  DeletedOrgSchema,
  MemberPageSchema,
  OrgPageSchema,
  OrgSchema,
} from "../../src/routes/orgs/orgs.schemas";
import { DeletedUserSchema } from "../../src/routes/users/users.schemas";

describe("teams: create, read, rename, delete", () => {
  it("creates a team with its creator as owner, and lists it with the role", async () => {
    const alice = await signUp();
    const org = await createTeam(alice.token, "Platform");
    expect(org).toMatchObject({ name: "Platform", role: "owner", transfer: null });
    const page = expectData(await api("/api/orgs", { token: alice.token }), 200, OrgPageSchema);
    expect(page.items).toEqual([expect.objectContaining({ id: org.id, role: "owner" })]);
    expect(page.nextCursor).toBeNull();
    const one = expectData(await api(`/api/orgs/${org.id}`, { token: alice.token }), 200, OrgSchema);
    expect(one.name).toBe("Platform");
  });

  it("pages the list with nextCursor", async () => {
    const alice = await signUp();
    const made = [
      await createTeam(alice.token),
      await createTeam(alice.token),
      await createTeam(alice.token),
    ];
    const first = expectData(await api("/api/orgs?limit=2", { token: alice.token }), 200, OrgPageSchema);
    expect(first.items.map((o) => o.id)).toEqual(made.slice(0, 2).map((o) => o.id));
    const rest = expectData(
      await api(`/api/orgs?limit=2&cursor=${first.nextCursor}`, { token: alice.token }),
      200,
      OrgPageSchema,
    );
    expect(rest.items.map((o) => o.id)).toEqual([made[2]!.id]);
    expect(rest.nextCursor).toBeNull();
  });

  it("refuses a blank or missing name with 400", async () => {
    const alice = await signUp();
    expectError(await api("/api/orgs", { method: "POST", token: alice.token, json: { name: "  " } }), 400);
    expectError(await api("/api/orgs", { method: "POST", token: alice.token, json: {} }), 400);
    expectError(
      await api("/api/orgs", { method: "POST", token: alice.token, json: { name: "x", extra: 1 } }),
      400,
    );
  });

  it("Y1: answers 404 to non-members for everything of a team, as for a team that does not exist", async () => {
    const { org } = await teamOfFour();
    const stranger = await signUp();
    const paths = ["", "/members", "/invitations", "/audit"];
    for (const path of paths) {
      expectError(await api(`/api/orgs/${org.id}${path}`, { token: stranger.token }), 404, "Team not found");
    }
    expectError(
      await api(`/api/orgs/${org.id}`, { method: "POST", token: stranger.token, json: { name: "mine" } }),
      404,
    );
    expectError(await api(`/api/orgs/${org.id}/delete`, { method: "POST", token: stranger.token }), 404);
    expectError(await api("/api/orgs/999999999", { token: stranger.token }), 404, "Team not found");
    expectError(await api("/api/orgs/abc", { token: stranger.token }), 400);
  });

  it("lets an admin rename, and the owner alone delete, saying what was erased", async () => {
    const { org, owner, admin, member } = await teamOfFour();
    const renamed = expectData(
      await api(`/api/orgs/${org.id}`, { method: "POST", token: admin.token, json: { name: "Renamed" } }),
      200,
      OrgSchema,
    );
    expect(renamed).toMatchObject({ name: "Renamed", role: "admin" });
    expectError(
      await api(`/api/orgs/${org.id}`, { method: "POST", token: member.token, json: { name: "No" } }),
      403,
    );
    expectError(await api(`/api/orgs/${org.id}/delete`, { method: "POST", token: admin.token }), 403);
    const gone = expectData(
      await api(`/api/orgs/${org.id}/delete`, { method: "POST", token: owner.token }),
      200,
      DeletedOrgSchema,
    );
    // Four members, three accepted invitations; created, renamed, three invited, three accepted.
    expect(gone).toEqual({
      id: org.id,
      erased: { members: 4, invitations: 3, auditEntries: 8, files: 0, filesPending: false, todos: 0 },
    });
    expectError(await api(`/api/orgs/${org.id}`, { token: member.token }), 404);
    expectError(await api(`/api/orgs/${org.id}`, { token: owner.token }), 404);
  });

  it("Y11: limits the teams one account belongs to (409)", async () => {
    const alice = await signUp();
    const limit = { ORG_MAX_TEAMS_PER_USER: "2" };
    const post = () =>
      fetchWithEnv(
        "/api/orgs",
        {
          method: "POST",
          token: alice.token,
          headers: { "Content-Type": "application/json" },
          body: '{"name":"t"}',
        },
        limit,
      );
    expect((await post()).status).toBe(201);
    expect((await post()).status).toBe(201);
    const third = await post();
    expect(third.status).toBe(409);
    expect(await third.text()).toContain("at most 2 teams");
  });
});

describe("teams and account deletion", () => {
  it("Y12: refuses to delete an account owning a team with other members (409 naming it), until ownership moves", async () => {
    const owner = await signUp();
    const other = await signUp();
    const org = await createTeam(owner.token, "Shared team");
    await join(owner, org.id, other, "member");
    const refused = await api(`/api/users/${owner.userId}/delete`, { method: "POST", token: owner.token });
    expectError(refused, 409, /Shared team/);
    expectData(await api(`/api/orgs/${org.id}`, { token: owner.token }), 200, OrgSchema);
    // The member leaving makes the team the owner's alone: it goes with the account.
    await api(`/api/orgs/${org.id}/members/${other.userId}/delete`, { method: "POST", token: other.token });
    expectData(
      await api(`/api/users/${owner.userId}/delete`, { method: "POST", token: owner.token }),
      200,
      DeletedUserSchema,
    );
    expectError(await api(`/api/orgs/${org.id}`, { token: other.token }), 404);
  });

  it("a deleted member leaves the team's member list", async () => {
    const owner = await signUp();
    const other = await signUp();
    const org = await createTeam(owner.token);
    await join(owner, org.id, other, "viewer");
    expectData(
      await api(`/api/users/${other.userId}/delete`, { method: "POST", token: other.token }),
      200,
      DeletedUserSchema,
    );
    const members = expectData(
      await api(`/api/orgs/${org.id}/members`, { token: owner.token }),
      200,
      MemberPageSchema,
    );
    expect(members.items.map((m) => m.userId)).toEqual([owner.userId]);
  });
});
