type Mailer = Pick<Env, "EMAIL" | "EMAIL_FROM">;
type Recipient = { email: string; username: string };

/** An e-mail whose one-time `link` the recipient opens to prove the address. */
async function sendLinkEmail(
  env: Mailer,
  to: Recipient,
  mail: { subject: string; asks: string; after: string },
  link: string,
  hours: number,
): Promise<void> {
  const text =
    `Hello ${to.username},\n\n${mail.asks} Open this link within ${hours} hours to confirm it; it works ` +
    `once:\n\n${link}\n\n${mail.after}\n`;
  await env.EMAIL.send({ from: env.EMAIL_FROM, to: to.email, subject: mail.subject, text });
}

/** After registration (or a resend): prove the account's address. */
export function sendVerifyEmail(env: Mailer, to: Recipient, link: string, hours: number): Promise<void> {
  const mail = {
    subject: "Confirm your e-mail address",
    asks: "This address was given for your account.",
    after:
      "A confirmed address is where password resets and team invitations go. If you did not create an " +
      "account, ignore this e-mail.",
  };
  return sendLinkEmail(env, to, mail, link, hours);
}

/** To the address asked for: the change happens only when this link is used. */
export function sendChangeLinkEmail(env: Mailer, to: Recipient, link: string, hours: number): Promise<void> {
  const mail = {
    subject: "Confirm your new e-mail address",
    asks: "Your account asked to use this address from now on.",
    after:
      "Until then the account keeps its current address. If you did not ask for this, ignore this e-mail.",
  };
  return sendLinkEmail(env, to, mail, link, hours);
}

/** To the current address when a change is asked for: what is changing, and how to stop it. */
export async function sendChangeNoticeEmail(
  env: Mailer,
  to: Recipient,
  newEmail: string,
  hours: number,
): Promise<void> {
  const text =
    `Hello ${to.username},\n\nSomeone signed in to your account asked to change its e-mail address from ` +
    `this one to ${newEmail}. Nothing changes until a link sent to ${newEmail} is used (within ${hours} hours).\n\n` +
    'If this was not you, someone knows your password: reset it now ("Forgot password", with this ' +
    "address). The reset cancels the change, signs out every device and ends every API key, passkey and " +
    "connected app of the account.\n";
  await env.EMAIL.send({
    from: env.EMAIL_FROM,
    to: to.email,
    subject: "Your e-mail address is changing",
    text,
  });
}

/** To the old address once the change is done. */
export async function sendChangedEmail(env: Mailer, to: Recipient, newEmail: string): Promise<void> {
  const text =
    `Hello ${to.username},\n\nThe e-mail address of your account is now ${newEmail}: password resets go ` +
    "there from now on, and reset links sent to this address no longer work.\n\n" +
    "If this was not you, contact the service's administrators: this address can no longer recover the account.\n";
  await env.EMAIL.send({
    from: env.EMAIL_FROM,
    to: to.email,
    subject: "Your e-mail address was changed",
    text,
  });
}
