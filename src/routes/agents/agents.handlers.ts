import { agentAccess } from "../../agents/agent-access";
import { issueTicket } from "../../auth/tickets";
import { jwtSecret } from "../../auth/tokens";
import { created } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedRouteHandler } from "../../http/types";
import type { CreateTicketRoute } from "./agents.routes";

export const createTicket: AuthedRouteHandler<CreateTicketRoute> = async (c) => {
  const target = c.req.valid("json");
  const user = c.get("user");
  const access = agentAccess(target.agent, target.name, user.id);
  if (!access.ok) throw new ApiError(403, access.message);
  // The gate's user, checked against D1 on this request: the ticket carries its current token version.
  const { ticket, expiresAt } = await issueTicket(jwtSecret(c.env), user, target);
  return created(c, { ticket, expiresAt: expiresAt.toISOString() });
};
