import type { Context } from "hono";
import { limitAuthAttempt } from "../auth/passwords/attempt-limits";
import { verifyPassword } from "../auth/passwords/passwords";
import { findPasswordHash } from "../auth/users.queries";
import { ApiError } from "./errors";
import { userGone } from "./require-auth";
import type { AppEnv } from "./types";

/**
 * The signed-in user proves they know the password before a change that would outlive a stolen
 * token: a new password or e-mail address, a passkey, an API key that writes. Limited per user like
 * a login (429); a wrong one is 403.
 */
export async function requireCurrentPassword<E extends AppEnv>(
  c: Context<E>,
  userId: number,
  currentPassword: string,
): Promise<void> {
  await limitAuthAttempt(c.env, c.req.raw.headers, "password", String(userId));
  const stored = await findPasswordHash(c.var.dbs.directory, userId);
  // Deleted since the gate let this request in.
  if (!stored) throw userGone(userId);
  if (!(await verifyPassword(currentPassword, stored)))
    throw new ApiError(403, "Current password is incorrect");
}
