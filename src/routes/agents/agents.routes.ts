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
    "one-hour login token: it is valid for 60 s, for this agent, instance and user only. A chat belongs " +
    "to one user, so a ticket for another user's chat is refused (403). The todo feed " +
    "(`todo-feed-agent`, instance `user-<your user id>`) always needs one, whatever `AGENTS_REQUIRE_AUTH` says.",
  middleware: [idempotent("POST /api/agents/tickets")] as const,
  request: { headers: IdempotencyHeaders, body: jsonBody(AgentTicketBody) },
  responses: {
    201: okContent(AgentTicketSchema, "A ticket for that instance"),
    ...errorResponses(400, 401, 403, 409, 413, 422, 500),
  },
});

export type CreateTicketRoute = typeof createTicket;
