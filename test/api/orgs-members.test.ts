import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { api, expectData, expectError } from "../helpers/http";
import { teamOfFour } from "../helpers/orgs";
import {
  MemberPageSchema,
  MemberSchema,
  OrgSchema,
  RemovedMemberSchema,
} from "../../src/routes/orgs/orgs.schemas";

const setRole = (token: string, orgId: number, userId: number, role: string) =>
  api(`/api/orgs/${orgId}/members/${userId}`, { method: "POST", token, json: { role } });
const removeMember = (token: string, orgId: number, userId: number) =>
  api(`/api/orgs/${orgId}/members/${userId}/delete`, { method: "POST", token });
const post = (token: string, path: string, json?: unknown) => api(path, { method: "POST", token, json });

describe("members and roles", () => {
  it("lists members with username, name, role and when they joined", async () => {
    const { org, owner, admin, member, viewer } = await teamOfFour();
    const page = expectData(
      await api(`/api/orgs/${org.id}/members`, { token: viewer.token }),
      200,
      MemberPageSchema,
    );
    expect(page.items.map((m) => [m.userId, m.role])).toEqual([
      [owner.userId, "owner"],
      [admin.userId, "admin"],
      [member.userId, "member"],
      [viewer.userId, "viewer"],
    ]);
    expect(page.items[0]).toMatchObject({ username: owner.username, name: "Test User" });
  });

  it("Y3: admins move members and viewers between the two; only the owner grants or removes admin", async () => {
    const { org, owner, admin, member, viewer } = await teamOfFour();
    const changed = expectData(
      await setRole(admin.token, org.id, member.userId, "viewer"),
      200,
      MemberSchema,
    );
    expect(changed.role).toBe("viewer");
    expectData(await setRole(admin.token, org.id, member.userId, "member"), 200, MemberSchema);
    expectError(await setRole(admin.token, org.id, viewer.userId, "admin"), 403, /admins:manage/);
    expectError(await setRole(member.token, org.id, viewer.userId, "member"), 403);
    expectData(await setRole(owner.token, org.id, viewer.userId, "admin"), 200, MemberSchema);
    expectError(await setRole(admin.token, org.id, viewer.userId, "member"), 403, /admins:manage/);
    expectData(await setRole(owner.token, org.id, admin.userId, "member"), 200, MemberSchema);
    // The demoted admin is refused at their next request.
    expectError(await post(admin.token, `/api/orgs/${org.id}`, { name: "x" }), 403);
  });

  it("Y4: the owner's role never changes but by transfer, and the owner cannot leave (409)", async () => {
    const { org, owner, admin } = await teamOfFour();
    expectError(await setRole(owner.token, org.id, owner.userId, "admin"), 409, /transfer/);
    expectError(await setRole(admin.token, org.id, owner.userId, "member"), 409);
    expectError(await setRole(owner.token, org.id, admin.userId, "owner"), 400);
    expectError(await removeMember(owner.token, org.id, owner.userId), 409, /cannot leave/);
    expectError(await removeMember(admin.token, org.id, owner.userId), 409);
  });

  it("Y10: admins remove members and viewers, the owner admins too; anyone leaves; removed members get 404 next", async () => {
    const { org, owner, admin, member, viewer } = await teamOfFour();
    expectError(await removeMember(member.token, org.id, viewer.userId), 403);
    const removed = expectData(
      await removeMember(admin.token, org.id, viewer.userId),
      200,
      RemovedMemberSchema,
    );
    expect(removed).toEqual({ userId: viewer.userId, left: false });
    expectError(await api(`/api/orgs/${org.id}`, { token: viewer.token }), 404);
    expectError(await removeMember(admin.token, org.id, viewer.userId), 404, "Member not found");
    const left = expectData(
      await removeMember(member.token, org.id, member.userId),
      200,
      RemovedMemberSchema,
    );
    expect(left).toEqual({ userId: member.userId, left: true });
    expectError(await api(`/api/orgs/${org.id}/members`, { token: member.token }), 404);
    const other = await signUp();
    expectError(await removeMember(owner.token, org.id, other.userId), 404);
    expectData(await removeMember(owner.token, org.id, admin.userId), 200, RemovedMemberSchema);
    expectError(await api(`/api/orgs/${org.id}`, { token: admin.token }), 404);
  });
});

describe("ownership transfer", () => {
  it("Y5: moves only when the named member accepts: they become owner, the old owner admin, in one step", async () => {
    const { org, owner, admin, member } = await teamOfFour();
    expectError(await post(admin.token, `/api/orgs/${org.id}/transfer`, { userId: member.userId }), 403);
    expectError(await post(owner.token, `/api/orgs/${org.id}/transfer`, { userId: owner.userId }), 409);
    const stranger = await signUp();
    expectError(await post(owner.token, `/api/orgs/${org.id}/transfer`, { userId: stranger.userId }), 404);
    const offered = expectData(
      await post(owner.token, `/api/orgs/${org.id}/transfer`, { userId: member.userId }),
      200,
      OrgSchema,
    );
    expect(offered.transfer?.userId).toBe(member.userId);
    const hours = (Date.parse(offered.transfer!.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    // Nothing moved yet; someone else cannot take it.
    expectError(await post(admin.token, `/api/orgs/${org.id}/transfer/accept`), 409);
    const taken = expectData(await post(member.token, `/api/orgs/${org.id}/transfer/accept`), 200, OrgSchema);
    expect(taken).toMatchObject({ role: "owner", transfer: null });
    const roles = expectData(
      await api(`/api/orgs/${org.id}/members`, { token: member.token }),
      200,
      MemberPageSchema,
    );
    const byId = Object.fromEntries(roles.items.map((m) => [m.userId, m.role]));
    expect(byId[member.userId]).toBe("owner");
    expect(byId[owner.userId]).toBe("admin");
    expect(roles.items.filter((m) => m.role === "owner")).toHaveLength(1);
    expectError(await post(member.token, `/api/orgs/${org.id}/transfer/accept`), 409);
    expectError(await post(owner.token, `/api/orgs/${org.id}/delete`), 403);
  });

  it("a withdrawn offer, or one to a member who has left, cannot be accepted", async () => {
    const { org, owner, admin, member } = await teamOfFour();
    await post(owner.token, `/api/orgs/${org.id}/transfer`, { userId: admin.userId });
    expectData(await post(owner.token, `/api/orgs/${org.id}/transfer/cancel`), 200, OrgSchema);
    expectError(await post(owner.token, `/api/orgs/${org.id}/transfer/cancel`), 409);
    expectError(await post(admin.token, `/api/orgs/${org.id}/transfer/accept`), 409);
    await post(owner.token, `/api/orgs/${org.id}/transfer`, { userId: member.userId });
    await removeMember(member.token, org.id, member.userId);
    const team = expectData(await api(`/api/orgs/${org.id}`, { token: owner.token }), 200, OrgSchema);
    expect(team).toMatchObject({ role: "owner", transfer: null });
  });

  it("Y4: concurrent accepts and an expired offer leave exactly one owner", async () => {
    const { env } = await import("cloudflare:workers");
    const { org, owner, member } = await teamOfFour();
    await post(owner.token, `/api/orgs/${org.id}/transfer`, { userId: member.userId });
    await env.DB.prepare("UPDATE orgs_table SET transferExpiresAt = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), org.id)
      .run();
    expectError(await post(member.token, `/api/orgs/${org.id}/transfer/accept`), 409, /expired/);
    await post(owner.token, `/api/orgs/${org.id}/transfer`, { userId: member.userId });
    const results = await Promise.all(
      [1, 2, 3].map(() => post(member.token, `/api/orgs/${org.id}/transfer/accept`)),
    );
    expect(results.map((r) => r.status).toSorted()).toEqual([200, 409, 409]);
    const owners = await env.DB.prepare(
      "SELECT userId FROM org_members_table WHERE orgId = ? AND role = 'owner'",
    )
      .bind(org.id)
      .all();
    expect(owners.results).toEqual([{ userId: member.userId }]);
  });
});
