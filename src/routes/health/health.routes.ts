import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, okContent, PUBLIC } from "../../http/openapi-helpers";

export const HealthSchema = z
  .object({
    status: z.literal("ok"),
    d1: z.object({ ok: z.boolean(), latencyMs: z.number() }),
    time: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
  })
  .openapi("Health");

export const health = createRoute({
  operationId: "health",
  method: "get",
  path: "/health",
  tags: ["Health"],
  summary: "Liveness and D1 reachability",
  description: "Public. 200 when the Worker runs and a trivial D1 query answers; 503 when D1 does not.",
  ...PUBLIC,
  responses: {
    200: okContent(HealthSchema, "The Worker runs and D1 answers"),
    ...errorResponses(503),
  },
});

export type HealthRoute = typeof health;
