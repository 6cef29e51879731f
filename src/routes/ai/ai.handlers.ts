import { ok } from "../../http/envelope";
import type { AppRouteContext } from "../../http/types";
import { recentProbe } from "../../ai/probe-cache";
import { clientIp, consume } from "../../core/rate-limit";
import type { HealthRoute } from "./ai.routes";

export async function health(c: AppRouteContext<HealthRoute>) {
  // Public and backed by a paid model: limited per client IP, and a recent answer is reused.
  await consume(c.env.AI_HEALTH_LIMITER, `ai-health:${clientIp(c.req.raw.headers)}`);
  return ok(c, await recentProbe(c.env, Date.now(), c.req.valid("query").models === "all"));
}
