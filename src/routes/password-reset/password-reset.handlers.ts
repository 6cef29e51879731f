import { limitResetRequest } from "../../auth/attempt-limits";
import { forgetAuthUser } from "../../auth/auth-user-cache";
import { confirmReset, sendResetLink } from "../../auth/password-reset";
import { createDb } from "../../db/client";
import { accepted, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AppRouteHandler } from "../../http/types";
import type { ConfirmRoute, RequestRoute } from "./password-reset.routes";

const ACCEPTED = { message: "If an account uses this e-mail address, a reset link is on its way." };

export const request: AppRouteHandler<RequestRoute> = async (c) => {
  const { email } = c.req.valid("json");
  await limitResetRequest(c.env, c.req.raw.headers, email);
  // Everything that depends on the address runs after the answer: same answer, same time, for all.
  c.executionCtx.waitUntil(sendResetLink(c.env, createDb(c.env.DB), email, c.get("logger")));
  return accepted(c, ACCEPTED);
};

export const confirm: AppRouteHandler<ConfirmRoute> = async (c) => {
  const { token, password } = c.req.valid("json");
  const user = await confirmReset(c.get("db"), token, password);
  if (!user) throw new ApiError(400, "Invalid or expired reset link: ask for a new one");
  forgetAuthUser(user.id);
  c.get("logger").info("password_reset_completed", { userId: user.id });
  return ok(c, { userId: user.id, username: user.username });
};
