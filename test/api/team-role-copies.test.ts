// The copies of members' roles in the data databases (src/orgs/team-role-copies.ts), which a team's todo
// create and list check in their own statement: made from the directory when a check finds none, blanked
// in every data database by a role change or removal, never written from a directory read older than a
// blank, and gone with the team or the account (docs/security.md, Y10).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { blankCopiedRoles, selectCopiedRole, writeCopiedRole } from "../../src/orgs/team-role-copies.queries";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { api, expectData, expectError } from "../helpers/http";
import { teamOfFour } from "../helpers/orgs";
import { dataDb, namedDatabases } from "../helpers/shards";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";

type Copy = { role: string | null; generation: number };

/** The copy of `userId`'s role in team `orgId`, in each database that has one (by binding name). */
async function copies(orgId: number, userId: number): Promise<Record<string, Copy>> {
  const found: Record<string, Copy> = {};
  for (const { name, db } of namedDatabases()) {
    const row = await db
      .prepare("SELECT role, generation FROM team_roles_table WHERE orgId = ? AND userId = ?")
      .bind(orgId, userId)
      .first<Copy>();
    if (row) found[name] = row;
  }
  return found;
}

const teamCreate = (user: SignedUpUser, orgId: number) =>
  api("/api/todos", { method: "POST", token: user.token, json: { title: "Copied", orgId } });

/** A shard other than the team's own: where a copy would be left after the team moved away. */
async function otherDatabaseThan(orgId: number): Promise<{ name: string; db: D1Database }> {
  const own = await dataDb({ orgId });
  return namedDatabases().find(({ name, db }) => name.startsWith("DB_SHARD_") && db !== own)!;
}

describe("copies of members' roles in the data databases", () => {
  it("a member's first team create copies their role where the team's data is; an outsider's copies nothing", async () => {
    const [{ org, member }, outsider] = await Promise.all([teamOfFour(), signUp()]);
    expect(await copies(org.id, member.userId)).toEqual({});
    expectData(await teamCreate(member, org.id), 201, TodoWithAttachmentsSchema);
    const own = await dataDb({ orgId: org.id });
    const [name] = namedDatabases().flatMap((each) => (each.db === own ? [each.name] : []));
    expect(await copies(org.id, member.userId)).toEqual({ [name!]: { role: "member", generation: 0 } });
    expectError(await teamCreate(outsider, org.id), 404, "Team not found");
    expect(await copies(org.id, outsider.userId)).toEqual({});
  });

  it("a refused request writes no copy: a viewer's create is 403 with none made, their page read makes it", async () => {
    const { org, viewer } = await teamOfFour();
    expectError(await teamCreate(viewer, org.id), 403, /\(viewer\) may not change/);
    expect(await copies(org.id, viewer.userId)).toEqual({});
    expect((await api(`/api/todos?orgId=${org.id}`, { token: viewer.token })).status).toBe(200);
    expect(Object.values(await copies(org.id, viewer.userId))).toEqual([{ role: "viewer", generation: 0 }]);
    // With the copy made, the refusal is the statement's own, and still writes nothing.
    expectError(await teamCreate(viewer, org.id), 403, /\(viewer\) may not change/);
    expect(Object.values(await copies(org.id, viewer.userId))).toEqual([{ role: "viewer", generation: 0 }]);
  });

  it("a removal blanks the member's copy in every data database and raises its generation", async () => {
    const { org, owner, member } = await teamOfFour();
    expectData(await teamCreate(member, org.id), 201, TodoWithAttachmentsSchema);
    // A copy left in another database, as a move leaves one behind: it must not grant there either.
    const other = await otherDatabaseThan(org.id);
    await other.db
      .prepare("INSERT INTO team_roles_table (orgId, userId, role, generation) VALUES (?, ?, 'member', 3)")
      .bind(org.id, member.userId)
      .run();
    const removed = await api(`/api/orgs/${org.id}/members/${member.userId}/delete`, {
      method: "POST",
      token: owner.token,
    });
    expect(removed.status).toBe(200);
    const after = await copies(org.id, member.userId);
    // Blanked before and after the directory's change: two generations up.
    expect(after[other.name]).toEqual({ role: null, generation: 5 });
    expect(Object.values(after)).toContainEqual({ role: null, generation: 2 });
    expectError(await teamCreate(member, org.id), 404, "Team not found");
    // A refusal does not copy the absence over the blank: nothing to grant, nothing written.
    expect(await copies(org.id, member.userId)).toEqual(after);
  });

  it("a copy read from the directory before a blank is not written after it", async () => {
    const db = createDb(env.DB_SHARD_0);
    const orgId = 2_000_000_000 + Math.floor(Math.random() * 1_000_000);
    const userId = 7;
    // A check read generation 0 (no copy) and then the directory's "member"; meanwhile a removal blanked.
    const [seen] = await selectCopiedRole(db, orgId, userId);
    expect(seen).toBeUndefined();
    await blankCopiedRoles(db, orgId, [userId]);
    await writeCopiedRole(db, orgId, userId, "member", 0);
    expect(await selectCopiedRole(db, orgId, userId)).toEqual([{ role: null, generation: 1 }]);
    // A read made after the blank writes.
    await writeCopiedRole(db, orgId, userId, "viewer", 1);
    expect(await selectCopiedRole(db, orgId, userId)).toEqual([{ role: "viewer", generation: 1 }]);
  });

  it("deleting the team deletes its copies everywhere; deleting an account deletes the account's", async () => {
    const [a, b] = await Promise.all([teamOfFour(), teamOfFour()]);
    await Promise.all([
      teamCreate(a.member, a.org.id),
      teamCreate(a.admin, a.org.id),
      teamCreate(b.member, b.org.id),
    ]);
    const other = await otherDatabaseThan(a.org.id);
    await other.db
      .prepare("INSERT INTO team_roles_table (orgId, userId, role) VALUES (?, ?, 'admin')")
      .bind(a.org.id, a.admin.userId)
      .run();
    expect((await api(`/api/orgs/${a.org.id}/delete`, { method: "POST", token: a.owner.token })).status).toBe(
      200,
    );
    expect(await copies(a.org.id, a.member.userId)).toEqual({});
    expect(await copies(a.org.id, a.admin.userId)).toEqual({});
    expect(Object.values(await copies(b.org.id, b.member.userId))).toEqual([
      { role: "member", generation: 0 },
    ]);
    const gone = await api(`/api/users/${b.member.userId}/delete`, { method: "POST", token: b.member.token });
    expect(gone.status).toBe(200);
    expect(await copies(b.org.id, b.member.userId)).toEqual({});
  });
});
