import { placementShards } from "../../db/shard-names";
import { created, ok } from "../../http/envelope";
import { accountEntry } from "../../http/audit-actor";
import { ApiError } from "../../http/errors";
import type { AppRouteContext, AuthedRouteContext } from "../../http/types";
import { limitAuthAttempt } from "../../auth/passwords/attempt-limits";
import { forgetAuthUser } from "../../auth/auth-user-cache";
import { endSocketsOf } from "../../agents/end-sockets";
import { checkPassword } from "../../auth/passwords/password-login";
import { hashPassword } from "../../auth/passwords/passwords";
import { refreshSession } from "../../auth/sessions/sessions";
import { deleteSession } from "../../auth/sessions/sessions.queries";
import { sessionResult, signIn } from "../../auth/sessions/sign-in";
import { jwtSecret } from "../../auth/tokens";
import { asUserConflict, usernameKey } from "../../auth/usernames";
import { verifyNewAccount } from "../../auth/email/email-links";
import { insertUserWithPassword } from "../../auth/users.queries";
import type { LoginRoute, LogoutRoute, RefreshRoute, RegisterRoute } from "./auth.routes";

export async function register(c: AppRouteContext<RegisterRoute>) {
  const { password, ...profile } = c.req.valid("json");
  const key = usernameKey(profile.username);
  await limitAuthAttempt(c.env, c.req.raw.headers, "register", key);
  // Checked before any write, so a misconfigured secret never leaves a user behind.
  const secret = jwtSecret(c.env);

  const passwordHash = await hashPassword(password);
  let user;
  try {
    user = await insertUserWithPassword(
      c.var.dbs.directory,
      { ...profile, usernameKey: key, role: "user" },
      passwordHash,
      placementShards(c.env),
    );
  } catch (err) {
    throw asUserConflict(err);
  }
  const logger = c.get("logger");
  logger.info("auth_registered", { userId: user.id });
  const { mail } = await verifyNewAccount(
    c.env,
    c.var.dbs.directory,
    user,
    new URL(c.req.url).origin,
    logger,
  );
  c.executionCtx.waitUntil(mail);
  const audit = accountEntry(c, user.id, { action: "account.signed_in", detail: { method: "register" } });
  return created(c, await signIn(c.var.dbs.directory, secret, user, c.req.raw.headers, audit));
}

export async function login(c: AppRouteContext<LoginRoute>) {
  const { username, password } = c.req.valid("json");
  await limitAuthAttempt(c.env, c.req.raw.headers, "login", usernameKey(username));
  const secret = jwtSecret(c.env);

  const checked = await checkPassword(c.var.dbs.directory, username, password);
  if (!checked.ok) {
    c.get("logger").info("auth_login_failed", { reason: checked.reason });
    throw new ApiError(401, "Invalid username or password");
  }
  c.get("logger").info("auth_login", { userId: checked.user.id });
  const audit = accountEntry(c, checked.user.id, {
    action: "account.signed_in",
    detail: { method: "password" },
  });
  return created(c, await signIn(c.var.dbs.directory, secret, checked.user, c.req.raw.headers, audit));
}

const REFRESH_FAILURES = {
  unknown: "Invalid refresh token",
  expired: "Session expired: sign in again",
  reused: "Refresh token already used: the session has ended, sign in again",
} as const;

export async function refresh(c: AppRouteContext<RefreshRoute>) {
  const { refreshToken } = c.req.valid("json");
  const secret = jwtSecret(c.env);
  const outcome = await refreshSession(c.var.dbs.directory, secret, refreshToken);
  if (!outcome.ok) {
    const logger = c.get("logger");
    const fields = { reason: outcome.reason, userId: outcome.userId, sessionId: outcome.sessionId };
    if (outcome.reason === "reused") logger.warn("auth_refresh_reused", fields);
    else logger.info("auth_refresh_failed", fields);
    if (outcome.userId !== undefined) {
      forgetAuthUser(outcome.userId);
      // A reused refresh token ends its whole session.
      if (outcome.reason === "reused") endSocketsOf(c, outcome.userId);
    }
    throw new ApiError(401, REFRESH_FAILURES[outcome.reason]);
  }
  return ok(c, await sessionResult(secret, outcome.user, outcome.session));
}

export async function logout(c: AuthedRouteContext<LogoutRoute>) {
  const credential = c.get("credential");
  if (credential.kind !== "session") throw new ApiError(400, "This token has no session to end");
  const user = c.get("user");
  const audit = accountEntry(
    c,
    user.id,
    { action: "session.ended", detail: { by: "logout" } },
    { ifChanged: true },
  );
  await deleteSession(c.var.dbs.directory, credential.sessionId, user.id, audit);
  forgetAuthUser(user.id);
  endSocketsOf(c, user.id);
  c.get("logger").info("auth_logout", { userId: user.id, sessionId: credential.sessionId });
  return ok(c, { sessionId: credential.sessionId });
}
