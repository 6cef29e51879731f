import { ok } from "../../lib/envelope";
import type { AppRouteHandler } from "../../lib/types";
import { recentProbe } from "../../services/ai-probe-cache";
import { clientIp, consume } from "../../services/rate-limit";
import type { HealthRoute } from "./ai.routes";

export const health: AppRouteHandler<HealthRoute> = async (c) => {
  // Public and backed by a paid model: limited per client IP, and a recent answer is reused.
  await consume(c.env.AI_HEALTH_LIMITER, `ai-health:${clientIp(c.req.raw.headers)}`);
  return ok(c, await recentProbe(c.env));
};
