import { ok } from "../../http/envelope";
import { directoryBinding } from "../../db/shard-names";
import { ApiError } from "../../http/errors";
import type { AppRouteContext } from "../../http/types";
import type { HealthRoute } from "./health.routes";

export async function health(c: AppRouteContext<HealthRoute>) {
  const started = Date.now();
  try {
    await directoryBinding(c.env).prepare("SELECT 1").first();
  } catch (err) {
    c.get("logger").error("health_d1_failed", { error: String(err) });
    throw new ApiError(503, "D1 is not answering");
  }
  return ok(c, {
    status: "ok" as const,
    d1: { ok: true, latencyMs: Date.now() - started },
    time: new Date().toISOString(),
  });
}
