import { clientIp, consume } from "./rate-limit";

/** One attempt of `action` for this client IP and username key (or user id, for password changes). */
export function limitAuthAttempt(
  env: Env,
  headers: Headers,
  action: "login" | "register" | "password",
  key: string,
): Promise<void> {
  return consume(env.AUTH_LIMITER, `${action}:${clientIp(headers)}:${key}`);
}
