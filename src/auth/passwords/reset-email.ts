export interface PasskeySummary {
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const day = (iso: string) => iso.slice(0, 10);

/**
 * A reset deletes the account's passkeys (an intruder may have added one): the e-mail names them, so
 * the owner knows what using the link costs and which to add again.
 */
function passkeyLines(passkeys: PasskeySummary[]): string {
  if (passkeys.length === 0) return "";
  const lines = passkeys.map(
    (p) =>
      `  - ${p.name} (added ${day(p.createdAt)}, ${p.lastUsedAt ? `last used ${day(p.lastUsedAt)}` : "never used"})`,
  );
  return (
    "\nUsing the link also removes the passkeys of your account, in case someone else added one; " +
    `add yours again once you are signed in with the new password:\n\n${lines.join("\n")}\n`
  );
}

/** The password-reset e-mail with its one-time `link`, through the Email Service binding. */
export async function sendResetEmail(
  env: Pick<Env, "EMAIL" | "EMAIL_FROM">,
  to: { email: string; username: string },
  link: string,
  minutes: number,
  passkeys: PasskeySummary[] = [],
): Promise<void> {
  const text =
    `Hello ${to.username},\n\nSomeone (hopefully you) asked to reset the password of your account. ` +
    `Open this link within ${minutes} minutes to choose a new one; it works once:\n\n${link}\n\n` +
    "Choosing a new password signs out every device and ends every API key and connected app " +
    "(OAuth grant) of the account, so whoever else may hold one is out.\n\n" +
    "If you did not ask for this, ignore this e-mail: your password stays as it is.\n" +
    passkeyLines(passkeys);
  await env.EMAIL.send({ from: env.EMAIL_FROM, to: to.email, subject: "Reset your password", text });
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** After a reset: the account's new password is set, and this is what it ended. */
export async function sendRecoveryEmail(
  env: Pick<Env, "EMAIL" | "EMAIL_FROM">,
  to: { email: string; username: string },
  ended: { sessions: number; apiKeys: number; passkeys: number; oauthGrants: number | null },
): Promise<void> {
  const grants =
    ended.oauthGrants === null
      ? "every connected app"
      : counted(ended.oauthGrants, "connected app", "connected apps");
  const text =
    `Hello ${to.username},\n\nThe password of your account was just reset with a link sent to this address. ` +
    `That ended ${counted(ended.sessions, "session", "sessions")} (every device is signed out), ` +
    `revoked ${counted(ended.apiKeys, "API key", "API keys")}, ` +
    `deleted ${counted(ended.passkeys, "passkey", "passkeys")} and disconnected ${grants} (OAuth grants). ` +
    "Sign in with the new password, then add your passkeys again, create new API keys and reconnect " +
    "the apps you use.\n\n" +
    "If you did not reset it, someone can read this mailbox: secure it, then reset the password again.\n";
  await env.EMAIL.send({ from: env.EMAIL_FROM, to: to.email, subject: "Your password was reset", text });
}
