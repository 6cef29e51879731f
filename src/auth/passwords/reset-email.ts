/** The page that takes a reset link's token: PASSWORD_RESET_URL with `{token}` replaced. */
export function resetLink(env: Pick<Env, "PASSWORD_RESET_URL">, token: string): string {
  return env.PASSWORD_RESET_URL.replace("{token}", encodeURIComponent(token));
}

/** The password-reset e-mail, through the Email Service binding. */
export async function sendResetEmail(
  env: Pick<Env, "EMAIL" | "EMAIL_FROM" | "PASSWORD_RESET_URL">,
  to: { email: string; username: string },
  token: string,
  minutes: number,
): Promise<void> {
  const link = resetLink(env, token);
  const text =
    `Hello ${to.username},\n\nSomeone (hopefully you) asked to reset the password of your account. ` +
    `Open this link within ${minutes} minutes to choose a new one; it works once:\n\n${link}\n\n` +
    "If you did not ask for this, ignore this e-mail: your password stays as it is.\n";
  await env.EMAIL.send({ from: env.EMAIL_FROM, to: to.email, subject: "Reset your password", text });
}
