import { createRoute, z } from "@hono/zod-openapi";
import { errorResponses, okContent, PUBLIC } from "../../http/openapi-helpers";

const ModelCheckSchema = z
  .object({
    model: z.string().openapi({ example: "@cf/meta/llama-4-scout-17b-16e-instruct" }),
    roles: z.array(z.enum(["chat", "title"])),
    ok: z.boolean(),
    latencyMs: z.number().int().optional(),
    finishReason: z.string().optional(),
    error: z
      .string()
      .optional()
      .openapi({ description: "Why it did not answer, without provider internals" }),
  })
  .openapi("AiModelCheck");

export const AiHealthQuery = z.object({
  models: z
    .enum(["all"])
    .optional()
    .openapi({
      param: { name: "models", in: "query" },
      description:
        "`all`: also one inference on each other configured model (chat models, title model), in `checks`.",
    }),
});

export const AiHealthSchema = z
  .object({
    provider: z.enum(["workers-ai", "openai-compatible", "demo"]).openapi({
      description: "`demo`: the offline demo model (AI_DEMO=true) answers, from a script, not AI",
    }),
    model: z.string().openapi({ example: "@cf/meta/llama-3.2-1b-instruct" }),
    latencyMs: z.number().int(),
    checkedAt: z.string().openapi({
      example: "2026-11-23T10:00:00.000Z",
      description: "When this inference ran: an answer is reused for 30 s.",
    }),
    result: z.object({
      response: z.string().openapi({ example: "AI_OK" }),
      finishReason: z.string().openapi({ example: "stop" }),
      usage: z.object({
        inputTokens: z.number().nullable(),
        outputTokens: z.number().nullable(),
        totalTokens: z.number().nullable(),
      }),
    }),
    models: z
      .object({
        probe: z.string(),
        chat: z.array(z.string()).openapi({ description: "CHAT_MODELS, in the order they are tried" }),
        title: z.string(),
      })
      .openapi({ description: "The model of each role, as configured" }),
    checks: z
      .array(ModelCheckSchema)
      .optional()
      .openapi({ description: "With `?models=all`: how each other model answered the same prompt" }),
  })
  .openapi("AiHealth");

export const health = createRoute({
  operationId: "aiHealth",
  method: "get",
  path: "/ai/health",
  tags: ["AI"],
  summary: "Run one real inference on the probe model",
  description:
    "Asks the small instruct model (PROBE_MODEL, or AI_MODEL at AI_BASE_URL) to answer `AI_OK` with " +
    "`max_tokens` 20 and returns its result, with the model configured for each role (`models`). " +
    "`?models=all` also runs the prompt once on each other configured model (the chat's fallbacks, the " +
    "title model) and reports each in `checks`, where a failing model is `ok: false`. The answer is " +
    "reused for 30 s (`checkedAt` says when it ran), and each client IP may ask 10 times a minute (429 " +
    "with `Retry-After` beyond). 503 when no AI is configured (local dev without a Cloudflare login), 504 " +
    "when the probe model does not answer in time, 500 when it fails.",
  ...PUBLIC,
  request: { query: AiHealthQuery },
  responses: {
    200: okContent(AiHealthSchema, "The model answered"),
    ...errorResponses(429, 500, 503, 504),
  },
});

export type HealthRoute = typeof health;
