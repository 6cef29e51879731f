import type { Context } from "hono";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../lib/types";

export const RETRY_AFTER_SECONDS = 60;

/** The client as Cloudflare reports it; absent locally, where every caller shares one bucket per username. */
export function clientIp(c: Context<AppEnv>): string {
  return c.req.header("cf-connecting-ip") ?? "local";
}

/**
 * One attempt of `action` for this IP and username key; 429 past the limit. A limiter that throws
 * answers 503 (fail closed): without it, passwords could be guessed at full speed.
 */
export async function limitAuthAttempt(
  c: Context<AppEnv>,
  action: "login" | "register" | "password",
  key: string,
) {
  let allowed: boolean;
  try {
    ({ success: allowed } = await c.env.AUTH_LIMITER.limit({ key: `${action}:${clientIp(c)}:${key}` }));
  } catch (err) {
    c.get("logger").error("auth_rate_limiter_failed", { action, error: String(err) });
    throw new ApiError(503, "Service temporarily unavailable", undefined, {
      "Retry-After": String(RETRY_AFTER_SECONDS),
    });
  }
  if (!allowed) {
    c.get("logger").warn("auth_rate_limited", { action });
    throw new ApiError(429, "Too many requests", undefined, {
      "Retry-After": String(RETRY_AFTER_SECONDS),
    });
  }
}
