import { pageLink } from "../auth/email/page-links";

/** The page an invitation's link opens: the client's on `origin`, or ORG_INVITE_URL with `{token}` replaced. */
export function inviteLink(env: Pick<Env, "ORG_INVITE_URL">, origin: string, token: string): string {
  return pageLink({ origin, page: "accept-invite", token, configured: env.ORG_INVITE_URL });
}

export interface InviteMail {
  to: string;
  teamName: string;
  invitedBy: string;
  role: string;
  days: number;
  /** The origin of the request that invited: the link opens the client there. */
  origin: string;
}

/** The invitation, through the Email binding the password reset uses; the token travels only here. */
export async function sendInviteEmail(
  env: Pick<Env, "EMAIL" | "EMAIL_FROM" | "ORG_INVITE_URL">,
  mail: InviteMail,
  token: string,
): Promise<void> {
  const text =
    `Hello,\n\n${mail.invitedBy} invited you to join the team "${mail.teamName}" as ${mail.role}. ` +
    `Open this link within ${mail.days} days to accept; it works once, for an account with this ` +
    `e-mail address (create one with this address if you have none):\n\n${inviteLink(env, mail.origin, token)}\n\n` +
    "If you do not know the sender, ignore this e-mail: nothing happens unless the link is used.\n";
  await env.EMAIL.send({ from: env.EMAIL_FROM, to: mail.to, subject: `Join ${mail.teamName}`, text });
}
