import { env } from "cloudflare:workers";
import { api, expectData } from "./http";
import { signUp, type SignedUpUser } from "./auth";
import { resetTokenIn, sentTo } from "./email";
import { OrgSchema } from "../../src/routes/orgs/orgs.schemas";
import { InvitationSchema } from "../../src/routes/invitations/invitations.schemas";
import type { GrantableRole } from "../../src/db/orgs-schema";

export type Org = { id: number; name: string };

export async function createTeam(token: string, name = `team ${crypto.randomUUID().slice(0, 8)}`) {
  return expectData(await api("/api/orgs", { method: "POST", token, json: { name } }), 201, OrgSchema);
}

/** POST /api/orgs/{orgId}/invitations, and the token of the link the invitee was e-mailed. */
export async function invite(token: string, orgId: number, email: string, role: GrantableRole = "member") {
  const earlier = (await invitationMails(email)).length;
  const res = await api(`/api/orgs/${orgId}/invitations`, { method: "POST", token, json: { email, role } });
  const invitation = expectData(res, 201, InvitationSchema);
  // Sent after the answer (waitUntil): it may land a moment later.
  const until = Date.now() + 5_000;
  let mails = await invitationMails(email);
  while (mails.length <= earlier && Date.now() < until) {
    await scheduler.wait(10);
    mails = await invitationMails(email);
  }
  const mail = mails.at(-1);
  if (!mail || mails.length <= earlier) throw new Error(`no invitation e-mail to ${email}`);
  return { invitation, inviteToken: resetTokenIn(mail), mail };
}

const invitationMails = async (email: string) =>
  (await sentTo(email)).filter((mail) => mail.subject.startsWith("Join "));

export const accept = (token: string, inviteToken: string) =>
  api("/api/invitations/accept", { method: "POST", token, json: { token: inviteToken } });

/** `user` joins the team as `role`: invited by `by`, accepted with the e-mailed token. */
export async function join(by: SignedUpUser, orgId: number, user: SignedUpUser, role: GrantableRole) {
  const { inviteToken } = await invite(by.token, orgId, user.email, role);
  expectData(await accept(user.token, inviteToken), 200, OrgSchema);
}

export interface Team {
  org: Org;
  owner: SignedUpUser;
  admin: SignedUpUser;
  member: SignedUpUser;
  viewer: SignedUpUser;
}

/** A fresh team with one account in each role. */
export async function teamOfFour(): Promise<Team> {
  const [owner, admin, member, viewer] = await Promise.all([signUp(), signUp(), signUp(), signUp()]);
  const org = await createTeam(owner.token);
  await join(owner, org.id, admin, "admin");
  await join(owner, org.id, member, "member");
  await join(owner, org.id, viewer, "viewer");
  return { org, owner, admin, member, viewer };
}

/** Moves an invitation's expiry into the past: what 7 days of waiting would do. */
export async function expireInvitation(invitationId: number) {
  await env.DB.prepare("UPDATE org_invitations_table SET expiresAt = ? WHERE id = ?")
    .bind(new Date(Date.now() - 1000).toISOString(), invitationId)
    .run();
}
