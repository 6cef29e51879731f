import type { Db } from "../db/client";
import { sha256Hex } from "../auth/opaque-tokens";
import type { AuditActor } from "./audit.queries";
import { acceptInvitation, findInvitationByTokenHash } from "./invitations.queries";
import { statusOf } from "./invitations";
import { forgetMembership } from "./membership";
import { countMembers, countMemberships, findOrg, type OrgRow } from "./orgs.queries";
import { OrgConflict } from "./org-failures";
import type { OrgLimits } from "./org-settings";
import type { OrgRole } from "../db/orgs-schema";

/** Why an accept was refused, in words the route turns into a status. */
export class InvitationRefused extends Error {
  constructor(readonly reason: "unknown" | "other_address") {
    super(
      reason === "unknown" ? "Invitation not found" : "This invitation was sent to another e-mail address",
    );
  }
}

/**
 * Accepts the invitation the token names for `user`, whose current e-mail must be the invited one (the
 * token travelled only to that mailbox). Once: anything not pending is refused, and the status and the
 * membership change in one batch.
 */
export async function acceptByToken(
  db: Db,
  token: string,
  user: { id: number; email: string },
  limits: OrgLimits,
  actor: AuditActor,
  now = new Date().toISOString(),
): Promise<{ org: OrgRow; role: OrgRole }> {
  const invitation = await findInvitationByTokenHash(db, await sha256Hex(token));
  if (!invitation) throw new InvitationRefused("unknown");
  if (invitation.email !== user.email.toLowerCase()) throw new InvitationRefused("other_address");
  const status = statusOf(invitation, now);
  if (status !== "pending") throw new OrgConflict(`This invitation is ${status}: ask for a new one`);
  const [members, memberships] = await Promise.all([
    countMembers(db, invitation.orgId),
    countMemberships(db, user.id),
  ]);
  if (members >= limits.membersPerTeam) {
    throw new OrgConflict(`The team has its ${limits.membersPerTeam} members already`);
  }
  if (memberships >= limits.teamsPerUser) {
    throw new OrgConflict(`An account belongs to at most ${limits.teamsPerUser} teams: leave one first`);
  }
  if (!(await acceptInvitation(db, invitation, user.id, now, actor))) {
    throw new OrgConflict("This invitation was used or revoked meanwhile");
  }
  forgetMembership(invitation.orgId, user.id);
  const org = await findOrg(db, invitation.orgId);
  if (!org) throw new InvitationRefused("unknown");
  return { org, role: invitation.role };
}
