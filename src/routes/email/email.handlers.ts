import { forgetAuthUser } from "../../auth/auth-user-cache";
import { confirmEmailLink, noticeEmailChanged, sendVerification } from "../../auth/email/email-links";
import { asUserConflict } from "../../auth/usernames";
import { findUserById } from "../../auth/users.queries";
import { accountEntry } from "../../http/audit-actor";
import { accepted, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AppRouteContext, AuthedRouteContext } from "../../http/types";
import type { ConfirmRoute, ResendRoute } from "./email.routes";

export async function confirm(c: AppRouteContext<ConfirmRoute>) {
  const { token } = c.req.valid("json");
  let outcome;
  try {
    outcome = await confirmEmailLink(c.var.dbs.directory, token, (userId, purpose) =>
      accountEntry(
        c,
        userId,
        { action: purpose === "change" ? "email.changed" : "email.verified" },
        { ifChanged: true, credential: null },
      ),
    );
  } catch (err) {
    throw asUserConflict(err);
  }
  if (!outcome.ok) throw new ApiError(400, "Invalid or expired link: ask for a new one");
  const { purpose, confirmed } = outcome;
  const logger = c.get("logger");
  logger.info("email_confirmed", { userId: confirmed.userId, purpose });
  if (purpose === "change") {
    forgetAuthUser(confirmed.userId);
    c.executionCtx.waitUntil(noticeEmailChanged(c.env, confirmed, logger));
  }
  return ok(c, { userId: confirmed.userId, email: confirmed.email, changed: purpose === "change" });
}

export async function resend(c: AuthedRouteContext<ResendRoute>) {
  const user = await findUserById(c.var.dbs.directory, c.get("user").id);
  // Deleted since the gate let this request in.
  if (!user) throw new ApiError(404, "User not found");
  if (user.emailVerifiedAt !== null) throw new ApiError(409, "Your e-mail address is verified already");
  const origin = new URL(c.req.url).origin;
  if (!(await sendVerification(c.env, c.var.dbs.directory, user, origin, c.get("logger")))) {
    throw new ApiError(429, "Links sent earlier are still usable: open one of those, or wait a day");
  }
  return accepted(c, { email: user.email });
}
