import type { Db } from "../../db/client";
import { DUMMY_PASSWORD_HASH, verifyPassword } from "./passwords";
import { usernameKey } from "../usernames";
import { findLoginByUsernameKey } from "../users.queries";

export type PasswordCheck =
  | { ok: true; user: NonNullable<Awaited<ReturnType<typeof findLoginByUsernameKey>>> }
  | { ok: false; reason: "password" | "unknown_user" };

/**
 * A username and password, as POST /api/login and the OAuth consent page take them. An unknown user
 * pays for one derivation too, so timing does not reveal which usernames exist. Callers limit attempts
 * first (limitAuthAttempt with the username's key).
 */
export async function checkPassword(db: Db, username: string, password: string): Promise<PasswordCheck> {
  const found = await findLoginByUsernameKey(db, usernameKey(username));
  const valid = await verifyPassword(password, found?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (found && valid) return { ok: true, user: found };
  return { ok: false, reason: found ? "password" : "unknown_user" };
}
