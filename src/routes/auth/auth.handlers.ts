import { created } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AppRouteHandler } from "../../http/types";
import { limitAuthAttempt } from "../../auth/attempt-limits";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "../../auth/passwords";
import { issueToken, jwtSecret } from "../../auth/tokens";
import { asUserConflict, usernameKey } from "../../auth/usernames";
import { findLoginByUsernameKey, insertUserWithPassword } from "../../auth/users.queries";
import type { LoginRoute, RegisterRoute } from "./auth.routes";

export const register: AppRouteHandler<RegisterRoute> = async (c) => {
  const { password, ...profile } = c.req.valid("json");
  const key = usernameKey(profile.username);
  await limitAuthAttempt(c.env, c.req.raw.headers, "register", key);
  // Checked before any write, so a misconfigured secret never leaves a user behind.
  const secret = jwtSecret(c.env);

  const passwordHash = await hashPassword(password);
  let user;
  try {
    user = await insertUserWithPassword(
      c.get("db"),
      { ...profile, usernameKey: key, role: "user" },
      passwordHash,
    );
  } catch (err) {
    throw asUserConflict(err);
  }
  c.get("logger").info("auth_registered", { userId: user.id });
  const token = await issueToken(secret, user);
  return created(c, { userId: user.id, username: user.username, token });
};

export const login: AppRouteHandler<LoginRoute> = async (c) => {
  const { username, password } = c.req.valid("json");
  const key = usernameKey(username);
  await limitAuthAttempt(c.env, c.req.raw.headers, "login", key);
  const secret = jwtSecret(c.env);

  const found = await findLoginByUsernameKey(c.get("db"), key);
  // An unknown user pays for one derivation too, so timing does not reveal which usernames exist.
  const valid = await verifyPassword(password, found?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!found || !valid) {
    c.get("logger").info("auth_login_failed", { reason: found ? "password" : "unknown_user" });
    throw new ApiError(401, "Invalid username or password");
  }
  c.get("logger").info("auth_login", { userId: found.id });
  const token = await issueToken(secret, found);
  return created(c, { userId: found.id, username: found.username, token });
};
