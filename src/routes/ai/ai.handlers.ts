import { ok } from "../../lib/envelope";
import { ApiError } from "../../lib/errors";
import type { AppRouteHandler } from "../../lib/types";
import { AiUnavailableError } from "../../services/ai-models";
import { ProbeTimeoutError, runProbe } from "../../services/ai-probe";
import type { HealthRoute } from "./ai.routes";

export const health: AppRouteHandler<HealthRoute> = async (c) => {
  try {
    return ok(c, await runProbe(c.env));
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
