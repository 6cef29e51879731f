import { limitResetRequest } from "../../auth/passwords/attempt-limits";
import { forgetAuthUser } from "../../auth/auth-user-cache";
import { endSocketsOf } from "../../agents/end-sockets";
import { confirmReset, sendRecoveryNotice, sendResetLink } from "../../auth/passwords/password-reset";
import { openDatabases } from "../../db/databases";
import { accepted, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AppRouteContext } from "../../http/types";
import type { ConfirmRoute, RequestRoute } from "./password-reset.routes";

const RESET_WORK_DELAY_MS = 100;
const ACCEPTED = { message: "If an account uses this e-mail address, a reset link is on its way." };

export async function request(c: AppRouteContext<RequestRoute>) {
  const { email } = c.req.valid("json");
  await limitResetRequest(c.env, c.req.raw.headers, email);
  // Everything that depends on the address runs after the answer: same answer, same time, for all.
  // It starts a moment later, so it never shares the isolate's thread with the answer on its way out
  // (under wrangler dev the simulated D1 and Email Service share workerd's thread too).
  const logger = c.get("logger");
  const origin = new URL(c.req.url).origin;
  c.executionCtx.waitUntil(
    scheduler
      .wait(RESET_WORK_DELAY_MS)
      .then(() => sendResetLink(c.env, openDatabases(c.env).directory, { email, origin }, logger)),
  );
  return accepted(c, ACCEPTED);
}

export async function confirm(c: AppRouteContext<ConfirmRoute>) {
  const { token, password } = c.req.valid("json");
  const logger = c.get("logger");
  const recovered = await confirmReset(c.env, c.var.dbs.directory, token, password, logger);
  if (!recovered) throw new ApiError(400, "Invalid or expired reset link: ask for a new one");
  const { user, ended } = recovered;
  forgetAuthUser(user.id);
  endSocketsOf(c, user.id);
  logger.info("password_reset_completed", { userId: user.id, ...ended });
  c.executionCtx.waitUntil(sendRecoveryNotice(c.env, user, ended, logger));
  return ok(c, { userId: user.id, username: user.username, ended });
}
