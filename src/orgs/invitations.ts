import type { Logger } from "../core/logger";
import type { Db } from "../db/client";
import type { GrantableRole } from "../db/orgs-schema";
import { uniqueViolation } from "../db/errors";
import { randomSecret, sha256Hex } from "../auth/opaque-tokens";
import type { AuditActor } from "./audit.queries";
import { inviteLink, sendInviteEmail } from "./invite-email";
import {
  countInvitesSince,
  countPendingInvites,
  insertInvitation,
  isMemberByEmail,
  type InvitationRow,
} from "./invitations.queries";
import { countMembers } from "./orgs.queries";
import { inviteTtlSeconds, orgLimits } from "./org-settings";
import { OrgConflict, OrgRateLimited } from "./org-failures";

export type InvitationStatusView = "pending" | "accepted" | "revoked" | "declined" | "expired";

/** The status as a client sees it: a pending invitation past its expiry is expired. */
export function statusOf(
  row: Pick<InvitationRow, "status" | "expiresAt">,
  now: string,
): InvitationStatusView {
  return row.status === "pending" && row.expiresAt <= now ? "expired" : row.status;
}

export interface InviteInput {
  org: { id: number; name: string };
  email: string;
  role: GrantableRole;
  invitedBy: { id: number; username: string };
  /** The origin of the request: the e-mailed link opens the client there. */
  origin: string;
}

/**
 * Checks the team's limits, stores the invitation with its token hashed and e-mails the token (the
 * send is returned, to run after the answer). Past the hourly limit 429; over the member or pending
 * limits, to a member, or to an address already invited and pending, 409.
 */
export async function createInvitation(
  env: Env,
  db: Db,
  input: InviteInput,
  actor: AuditActor,
  logger: Logger,
  now = new Date(),
): Promise<{ invitation: InvitationRow; mail: Promise<void> }> {
  const nowIso = now.toISOString();
  const limits = orgLimits(env);
  const hourAgo = new Date(now.getTime() - 3600_000).toISOString();
  const [sent, pending, members, member] = await Promise.all([
    countInvitesSince(db, input.org.id, hourAgo),
    countPendingInvites(db, input.org.id, nowIso),
    countMembers(db, input.org.id),
    isMemberByEmail(db, input.org.id, input.email),
  ]);
  if (sent >= limits.invitesPerHour) {
    throw new OrgRateLimited(`A team sends at most ${limits.invitesPerHour} invitations per hour`);
  }
  if (member) throw new OrgConflict("This address belongs to a member of the team already");
  if (pending >= limits.pendingInvitesPerTeam) {
    throw new OrgConflict(
      `A team has at most ${limits.pendingInvitesPerTeam} pending invitations: revoke one first`,
    );
  }
  if (members + pending >= limits.membersPerTeam) {
    throw new OrgConflict(`A team has at most ${limits.membersPerTeam} members, pending invitations counted`);
  }
  const token = randomSecret();
  const days = Math.round(inviteTtlSeconds(env) / 86400);
  const expiresAt = new Date(now.getTime() + inviteTtlSeconds(env) * 1000).toISOString();
  let invitation: InvitationRow;
  try {
    invitation = await insertInvitation(
      db,
      {
        orgId: input.org.id,
        email: input.email,
        role: input.role,
        tokenHash: await sha256Hex(token),
        invitedBy: input.invitedBy.id,
        expiresAt,
      },
      nowIso,
      actor,
    );
  } catch (err) {
    if (uniqueViolation(err))
      throw new OrgConflict("This address has a pending invitation to the team already");
    throw err;
  }
  const mailInput = {
    to: input.email,
    teamName: input.org.name,
    invitedBy: input.invitedBy.username,
    role: input.role,
    days,
    origin: input.origin,
  };
  const mail = sendInviteEmail(env, mailInput, token)
    .then(() => {
      if (env.LOG_RESET_LINKS === "true")
        logger.warn("org_invite_link", { link: inviteLink(env, input.origin, token) });
    })
    .catch((err: unknown) =>
      logger.error("org_invite_email_failed", { invitationId: invitation.id, error: String(err) }),
    );
  return { invitation, mail };
}
