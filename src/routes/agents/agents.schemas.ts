import { z } from "@hono/zod-openapi";
import { AGENT_NAME, ROUTABLE_AGENTS, type RoutableAgent } from "../../agents/agent-paths";
import { TICKET_TTL_SECONDS } from "../../auth/tickets";

const AGENTS = Object.keys(ROUTABLE_AGENTS) as [RoutableAgent, ...RoutableAgent[]];

export const AgentTicketBody = z
  .object({
    agent: z.enum(AGENTS).openapi({ example: "counter-agent" }),
    name: z
      .string()
      .max(64)
      .regex(AGENT_NAME, "1-64 characters from A-Z, a-z, 0-9, _ and -")
      .openapi({
        example: "demo",
        description:
          "The instance. A chat: the id of one of your chats (`POST /api/chats`), or with " +
          "`AGENTS_REQUIRE_AUTH=true` `user-<your user id>` or `user-<your user id>-<suffix>`; a counter any name.",
      }),
  })
  .strict()
  .openapi("AgentTicketBody");

export const AgentTicketSchema = z
  .object({
    ticket: z.string().openapi({
      description:
        `Send as \`?ticket=\` on the WebSocket upgrade of that instance, within ${TICKET_TTL_SECONDS} s. ` +
        "Valid only for that agent, instance and user.",
    }),
    expiresAt: z.string().openapi({ example: "2026-11-23T10:00:00.000Z" }),
  })
  .openapi("AgentTicket");
