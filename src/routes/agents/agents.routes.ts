import { createRoute } from "@hono/zod-openapi";
import { keyAccess } from "../../http/route-access";
import { IdempotencyHeaders, idempotent } from "../../http/idempotency";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import { AgentTicketBody, AgentTicketSchema } from "./agents.schemas";

export const createTicket = createRoute({
  method: "post",
  path: "/api/agents/tickets",
  operationId: "createTicket",
  ...keyAccess("agents:connect"),
  tags: ["Agents"],
  summary: "Get a short-lived ticket to open an agent WebSocket",
  description:
    "With `AGENTS_REQUIRE_AUTH=true`, a WebSocket on `/agents/<agent>/<name>` needs a credential in its " +
    "URL (browsers cannot set headers on a WebSocket). Send this ticket there as `?ticket=` instead of the " +
    "one-hour login token: it is valid for 60 s, for this agent, instance and user only. A chat of your " +
    "index (`name` = its id from `POST /api/chats`) and the todo feed (`todo-feed-agent`, instance " +
    "`user-<your user id>`) always need one, whatever `AGENTS_REQUIRE_AUTH` says; a chat id that is not in " +
    "your index is 404. A chat named `user-<id>[-<suffix>]` belongs to that user: another user's is 403.",
  middleware: [idempotent("POST /api/agents/tickets")] as const,
  request: { headers: IdempotencyHeaders, body: jsonBody(AgentTicketBody) },
  responses: {
    201: okContent(AgentTicketSchema, "A ticket for that instance"),
    ...errorResponses(400, 401, 403, 404, 409, 413, 422, 500),
  },
});

export type CreateTicketRoute = typeof createTicket;
