import { chatUserDailyOutputTokens } from "../../core/config";
import { findUserById } from "../../auth/users.queries";
import { userOwner } from "../../core/owner";
import { ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedRouteContext } from "../../http/types";
import { daysBetween, monthStart, utcDay } from "../../usage/usage-days";
import { usageReport } from "../../usage/usage-report";
import type { GetRoute } from "./usage.routes";

const MAX_DAYS = 366;

export async function get(c: AuthedRouteContext<GetRoute>) {
  const query = c.req.valid("query");
  const viewer = c.get("user");
  const userId = query.userId ?? viewer.id;
  if (userId !== viewer.id) {
    if (viewer.role !== "admin") throw new ApiError(403, "You can only read your own usage");
    if (c.get("credential").kind === "api_key") {
      throw new ApiError(403, "Reading another user's usage needs a sign-in, not an API key");
    }
    if (!(await findUserById(c.var.dbs.directory, userId))) throw new ApiError(404, "User not found");
  }
  const today = utcDay(new Date());
  const to = query.to ?? today;
  const from = query.from ?? monthStart(new Date(`${to}T00:00:00Z`));
  if (from > to) throw new ApiError(400, "from must not be after to");
  if (daysBetween(from, to) > MAX_DAYS) throw new ApiError(400, `At most ${MAX_DAYS} days at once`);
  return ok(
    c,
    await usageReport(
      await c.var.dbs.of(userOwner(userId)),
      userId,
      { from, to, today },
      chatUserDailyOutputTokens(c.env),
    ),
  );
}
