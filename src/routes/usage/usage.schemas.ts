import { z } from "@hono/zod-openapi";
import { aiUsageTable } from "../../db/usage-schema";
import { createSelectSchema } from "../../db/zod";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
// `2026-02-30` matches the pattern but is no day: it must read back as itself.
const isDay = (value: string) => {
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
};

const dayParam = (name: string, description: string, example: string) =>
  z
    .string()
    .regex(DAY, "Must be a day as YYYY-MM-DD")
    .refine(isDay, "Must be a real day")
    .optional()
    .openapi({ param: { name, in: "query" }, format: "date", description, example });

export const UsageQuery = z.object({
  from: dayParam("from", "First UTC day counted. Omitted: the first day of `to`'s month.", "2026-11-01"),
  to: dayParam("to", "Last UTC day counted (at most 366 days after `from`). Omitted: today.", "2026-11-30"),
  userId: z
    .string()
    .regex(/^[1-9][0-9]*$/, "Must be a positive integer")
    .transform(Number)
    .refine(Number.isSafeInteger, "Must be a safe integer")
    .optional()
    .openapi({
      param: { name: "userId", in: "query" },
      type: "integer",
      minimum: 1,
      description:
        "Admins (signed in, not with an API key): another user's usage. Anyone else: only your own id. " +
        "Must be a positive integer.",
      example: 42,
    }),
});

const Figures = {
  calls: z.number().int().openapi({ description: "Model calls (a turn's steps and titles)", example: 12 }),
  inputTokens: z.number().int().openapi({ example: 5120 }),
  outputTokens: z.number().int().openapi({ example: 3400 }),
};

const Usage = createSelectSchema(aiUsageTable);

export const UsageReportSchema = z
  .object({
    userId: z.number().int(),
    from: z.string().openapi({ format: "date", example: "2026-11-01" }),
    to: z.string().openapi({ format: "date", example: "2026-11-30" }),
    totals: z.object(Figures),
    byDay: z.array(z.object({ day: Usage.shape.day.openapi({ format: "date" }), ...Figures })),
    byChat: z
      .array(
        z.object({
          chatId: Usage.shape.chatId.openapi({ description: "The chat's id (or its `user-<id>` name)" }),
          title: z
            .string()
            .nullable()
            .openapi({ description: "Null once the chat is deleted (its usage stays)" }),
          ...Figures,
        }),
      )
      .openapi({ description: "The 100 chats that spent the most output tokens, most first" }),
    moreChats: z.number().int().openapi({ description: "Chats with usage in the range beyond `byChat`" }),
    byModel: z.array(z.object({ model: Usage.shape.model, ...Figures })),
    today: z
      .object({
        day: z.string().openapi({ format: "date" }),
        outputTokens: z.number().int(),
        budget: z.number().int().openapi({ description: "CHAT_USER_DAILY_OUTPUT_TOKENS" }),
        left: z.number().int(),
      })
      .openapi({ description: "Today's output tokens (UTC) against the daily budget, whatever the range" }),
  })
  .openapi("AiUsage");
