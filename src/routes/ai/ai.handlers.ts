import { ok } from "../../lib/envelope";
import { ApiError } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/types";
import { AiUnavailableError } from "../../services/ai-models";
import { ProbeTimeoutError } from "../../services/ai-probe";
import { recentProbe } from "../../services/ai-probe-cache";
import { clientIp, consume } from "../../services/rate-limit";
import type { HealthRoute } from "./ai.routes";

export const health: AppRouteHandler<HealthRoute> = async (c) => {
  // Public and backed by a paid model: limited per client IP, and a recent answer is reused.
  await consume(c.env.AI_HEALTH_LIMITER, `ai-health:${clientIp(c.req.raw.headers)}`);
  try {
    return ok(c, await recentProbe(c.env));
  } catch (err) {
    if (err instanceof AiUnavailableError) throw new ApiError(503, err.message);
    if (err instanceof ProbeTimeoutError) {
      c.get("logger").warn("ai_probe_timeout", { timeoutMs: err.timeoutMs });
      throw new ApiError(504, err.message);
    }
    // A failing model is an unexpected error: the global handler logs it and answers 500.
    throw err;
  }
};
