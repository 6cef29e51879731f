import { clientIp, consume } from "../../core/rate-limit";

/**
 * One attempt of `action` from this client: first against the client IP's own budget for sign-ins
 * (password and passkey alike) and registrations (spraying one password over many usernames, mass
 * registration), then against the IP plus username key (or user id, for password checks; or passkey).
 */
export async function limitAuthAttempt(
  env: Env,
  headers: Headers,
  action: "login" | "register" | "password" | "passkey",
  key: string,
): Promise<void> {
  const ip = clientIp(headers);
  if (action === "login" || action === "passkey") await consume(env.LOGIN_IP_LIMITER, `login-ip:${ip}`);
  if (action === "register") await consume(env.REGISTER_IP_LIMITER, `register-ip:${ip}`);
  await consume(env.AUTH_LIMITER, `${action}:${ip}:${key}`);
}

/**
 * One password-reset request: against the client IP's budget, then the address's (so nobody floods
 * one inbox from many addresses). Known and unknown addresses spend alike.
 */
export async function limitResetRequest(env: Env, headers: Headers, email: string): Promise<void> {
  await consume(env.RESET_IP_LIMITER, `reset-ip:${clientIp(headers)}`);
  await consume(env.RESET_EMAIL_LIMITER, `reset-email:${email}`);
}
