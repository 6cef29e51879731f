import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { awaitEmail, resetTokenIn } from "../helpers/email";
import { api, expectData, expectError } from "../helpers/http";
import { fetchWithEnv } from "../helpers/storage";
import { accept, createTeam, expireInvitation, invite } from "../helpers/orgs";
import { OrgSchema } from "../../src/routes/orgs/orgs.schemas";
import {
  InvitationPageSchema,
  InvitationSchema,
  MyInvitationListSchema,
} from "../../src/routes/invitations/invitations.schemas";

const invitations = (token: string, orgId: number) =>
  api(`/api/orgs/${orgId}/invitations`, { token }).then((res) => expectData(res, 200, InvitationPageSchema));

const sendInvite = (token: string, orgId: number, email: string, role = "member") =>
  api(`/api/orgs/${orgId}/invitations`, { method: "POST", token, json: { email, role } });

async function verify(email: string) {
  const token = resetTokenIn(await awaitEmail(email, "Confirm your e-mail address"));
  const res = await api("/api/auth/email/confirm", { method: "POST", json: { token } });
  expect(res.status).toBe(200);
}

describe("invitations", () => {
  it("Y6: e-mails a token= link to the accept page, stores only its hash, and lasts 7 days", async () => {
    const owner = await signUp();
    const guest = await signUp();
    const org = await createTeam(owner.token, "Blue team");
    const { invitation, inviteToken, mail } = await invite(owner.token, org.id, guest.email, "viewer");
    expect(invitation).toMatchObject({ email: guest.email, role: "viewer", status: "pending" });
    const days = (Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 2);
    expect(mail.subject).toBe("Join Blue team");
    expect(mail.text).toContain(`#/accept-invite?token=${inviteToken}`);
    const row = await env.DB.prepare("SELECT * FROM org_invitations_table WHERE id = ?")
      .bind(invitation.id)
      .first();
    expect(JSON.stringify(row)).not.toContain(inviteToken);
    expect(JSON.stringify(await invitations(owner.token, org.id))).not.toContain(inviteToken);
  });

  it("Y7: is accepted once, by the account with the invited address; the role is the invited one", async () => {
    const owner = await signUp();
    const guest = await signUp();
    const other = await signUp();
    const org = await createTeam(owner.token);
    const { invitation, inviteToken } = await invite(owner.token, org.id, guest.email, "viewer");
    expectError(await accept(other.token, inviteToken), 403, /another e-mail address/);
    const joined = expectData(await accept(guest.token, inviteToken), 200, OrgSchema);
    expect(joined).toMatchObject({ id: org.id, role: "viewer" });
    expectError(await accept(guest.token, inviteToken), 409, /accepted/);
    expectError(await accept(guest.token, "A".repeat(43)), 404, "Invitation not found");
    expectError(await accept(guest.token, "short"), 400);
    const listed = await invitations(owner.token, org.id);
    expect(listed.items.find((i) => i.id === invitation.id)).toMatchObject({ status: "accepted" });
  });

  it("Y7: concurrent accepts make one membership", async () => {
    const owner = await signUp();
    const guest = await signUp();
    const org = await createTeam(owner.token);
    const { inviteToken } = await invite(owner.token, org.id, guest.email);
    const results = await Promise.all([1, 2, 3, 4].map(() => accept(guest.token, inviteToken)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    const row = await env.DB.prepare(
      "SELECT count(*) AS n FROM org_members_table WHERE orgId = ? AND userId = ?",
    )
      .bind(org.id, guest.userId)
      .first<{ n: number }>();
    expect(row?.n).toBe(1);
  });

  it("Y8: one pending invitation per address (409); expired, revoked or used ones never block a new one", async () => {
    const owner = await signUp();
    const guest = await signUp();
    const org = await createTeam(owner.token);
    const first = await invite(owner.token, org.id, guest.email);
    expectError(await sendInvite(owner.token, org.id, guest.email), 409, /pending invitation/);
    // Expired: refused at accept, listed as expired, blocks nothing.
    await expireInvitation(first.invitation.id);
    expectError(await accept(guest.token, first.inviteToken), 409, /expired/);
    const second = await invite(owner.token, org.id, guest.email);
    // Revoked: refused at accept, blocks nothing.
    const revoked = expectData(
      await api(`/api/orgs/${org.id}/invitations/${second.invitation.id}/revoke`, {
        method: "POST",
        token: owner.token,
      }),
      200,
      InvitationSchema,
    );
    expect(revoked.status).toBe("revoked");
    expectError(
      await api(`/api/orgs/${org.id}/invitations/${second.invitation.id}/revoke`, {
        method: "POST",
        token: owner.token,
      }),
      409,
    );
    expectError(await accept(guest.token, second.inviteToken), 409, /revoked/);
    const third = await invite(owner.token, org.id, guest.email, "viewer");
    expectData(await accept(guest.token, third.inviteToken), 200, OrgSchema);
    // Used: the address is a member now, which is its own 409.
    expectError(await sendInvite(owner.token, org.id, guest.email), 409, /member of the team/);
    const statuses = (await invitations(owner.token, org.id)).items.map((i) => i.status);
    expect(statuses).toEqual(["expired", "revoked", "accepted"]);
  });

  it("another team's invitation id is 404 to revoke", async () => {
    const owner = await signUp();
    const a = await createTeam(owner.token);
    const b = await createTeam(owner.token);
    const { invitation } = await invite(owner.token, a.id, `x-${crypto.randomUUID()}@example.test`);
    expectError(
      await api(`/api/orgs/${b.id}/invitations/${invitation.id}/revoke`, {
        method: "POST",
        token: owner.token,
      }),
      404,
    );
  });

  it("Y9: GET /api/invitations lists invitations to a verified address only; decline closes one", async () => {
    const owner = await signUp();
    const guest = await signUp();
    const org = await createTeam(owner.token, "Green team");
    const { invitation, inviteToken } = await invite(owner.token, org.id, guest.email);
    const before = expectData(
      await api("/api/invitations", { token: guest.token }),
      200,
      MyInvitationListSchema,
    );
    expect(before.items).toEqual([]);
    expectError(
      await api(`/api/invitations/${invitation.id}/decline`, { method: "POST", token: guest.token }),
      404,
    );
    await verify(guest.email);
    const mine = expectData(
      await api("/api/invitations", { token: guest.token }),
      200,
      MyInvitationListSchema,
    );
    expect(mine.items).toEqual([
      expect.objectContaining({
        id: invitation.id,
        orgId: org.id,
        orgName: "Green team",
        invitedBy: owner.username,
      }),
    ]);
    const stranger = await signUp();
    expectError(
      await api(`/api/invitations/${invitation.id}/decline`, { method: "POST", token: stranger.token }),
      404,
    );
    const declined = expectData(
      await api(`/api/invitations/${invitation.id}/decline`, { method: "POST", token: guest.token }),
      200,
      InvitationSchema,
    );
    expect(declined.status).toBe("declined");
    expectError(await accept(guest.token, inviteToken), 409, /declined/);
  });

  it("admins invite members and viewers; only the owner invites an admin; members cannot invite", async () => {
    const owner = await signUp();
    const admin = await signUp();
    const member = await signUp();
    const org = await createTeam(owner.token);
    const a = await invite(owner.token, org.id, admin.email, "admin");
    expectData(await accept(admin.token, a.inviteToken), 200, OrgSchema);
    const m = await invite(admin.token, org.id, member.email, "member");
    expectData(await accept(member.token, m.inviteToken), 200, OrgSchema);
    expectError(await sendInvite(admin.token, org.id, `y-${crypto.randomUUID()}@example.test`, "admin"), 403);
    expectError(await sendInvite(member.token, org.id, `z-${crypto.randomUUID()}@example.test`), 403);
    expectError(await sendInvite(owner.token, org.id, "not-an-address"), 400);
    expectError(await sendInvite(owner.token, org.id, `o-${crypto.randomUUID()}@example.test`, "owner"), 400);
  });

  it("Y11: limits invitations per hour (429), pending invitations and members per team (409)", async () => {
    const owner = await signUp();
    const org = await createTeam(owner.token);
    const post = (overrides: Partial<Env>) =>
      fetchWithEnv(
        `/api/orgs/${org.id}/invitations`,
        {
          method: "POST",
          token: owner.token,
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: `l-${crypto.randomUUID()}@example.test` }),
        },
        overrides,
      );
    expect((await post({})).status).toBe(201);
    expect((await post({})).status).toBe(201);
    const pending = await post({ ORG_MAX_PENDING_INVITES: "2" });
    expect(pending.status).toBe(409);
    expect(await pending.text()).toContain("at most 2 pending invitations");
    const members = await post({ ORG_MAX_MEMBERS: "3" });
    expect(members.status).toBe(409);
    expect(await members.text()).toContain("at most 3 members");
    const hourly = await post({ ORG_INVITES_PER_HOUR: "2" });
    expect(hourly.status).toBe(429);
    expect(await hourly.text()).toContain("2 invitations per hour");
  });

  it("refuses an accept past the team's member limit (409)", async () => {
    const owner = await signUp();
    const guest = await signUp();
    const org = await createTeam(owner.token);
    const { inviteToken } = await invite(owner.token, org.id, guest.email);
    const res = await fetchWithEnv(
      "/api/invitations/accept",
      {
        method: "POST",
        token: guest.token,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token: inviteToken }),
      },
      { ORG_MAX_MEMBERS: "1" },
    );
    expect(res.status).toBe(409);
    expectData(await accept(guest.token, inviteToken), 200, OrgSchema);
  });
});
