import { createRoute } from "@hono/zod-openapi";
import { errorResponses, okContent } from "../../http/openapi-helpers";
import { keyAccess } from "../../http/route-access";
import { UsageQuery, UsageReportSchema } from "./usage.schemas";

export const get = createRoute({
  operationId: "getAiUsage",
  ...keyAccess("chats:read"),
  method: "get",
  path: "/api/ai/usage",
  tags: ["AI"],
  summary: "Your model usage: totals, by day, by chat and by model",
  description:
    "Tokens of every model call made for you (chat turns, one row per step, and chat titles), as the model " +
    "reported them, between two UTC days (this month by default). A range where `from` is after `to` is 400 " +
    "(from must not be after to), and so is one longer than a year (at most 366 days at once). `today` is where you " +
    "stand against the daily output-token budget (`CHAT_USER_DAILY_OUTPUT_TOKENS`) over all your chats. " +
    "Only your own: `userId` of another user is 403, unless you are an admin signed in (an API key is 403 " +
    "there too); an unknown user is then 404. An API key needs `chats:read`: the report names your chats by title.",
  request: { query: UsageQuery },
  responses: {
    200: okContent(UsageReportSchema, "The usage in that range"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export type GetRoute = typeof get;
