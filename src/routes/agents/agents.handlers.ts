import { agentAccess } from "../../agents/agent-access";
import { bearerToken } from "../../http/bearer";
import { created } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedRouteHandler } from "../../http/types";
import { issueTicket } from "../../auth/tickets";
import { jwtSecret, verifyToken } from "../../auth/tokens";
import type { CreateTicketRoute } from "./agents.routes";

export const createTicket: AuthedRouteHandler<CreateTicketRoute> = async (c) => {
  const target = c.req.valid("json");
  const access = agentAccess(target.agent, target.name, c.get("user").id);
  if (!access.ok) throw new ApiError(403, access.message);
  const secret = jwtSecret(c.env);
  // requireAuth has verified this token; its claims go into the ticket, so the same user checks apply on use.
  const claims = await verifyToken(secret, bearerToken(c.req.header("Authorization")) ?? "");
  if (!claims) throw new ApiError(401, "Unauthorized");
  const { ticket, expiresAt } = await issueTicket(secret, claims, target);
  return created(c, { ticket, expiresAt: expiresAt.toISOString() });
};
