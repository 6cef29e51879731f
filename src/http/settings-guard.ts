import type { MiddlewareHandler } from "hono";
import { linkSettingsProblem } from "../auth/email/page-links";
import { errorBody } from "./errors";
import type { AppEnv } from "./types";

/**
 * Refuses every request while a setting is unusable, saying which and how to fix it: a service that
 * would mail dead links stops at its first request (`npm run dev` prints the message and exits), not
 * at a user's first password reset.
 */
export const settingsGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const problem = linkSettingsProblem(c.env);
  if (!problem) return next();
  c.get("logger").error("settings_invalid", { problem });
  return c.json(errorBody(problem), 500);
};
