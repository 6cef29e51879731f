import { agentAccess, agentScopes, indexedOwner } from "../../agents/agent-access";
import { requireScopes } from "../../http/require-auth";
import { issueTicket } from "../../auth/tickets";
import { jwtSecret } from "../../auth/tokens";
import { created } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { Credential } from "../../auth/credentials";
import type { AuthedRouteContext } from "../../http/types";
import type { CreateTicketRoute } from "./agents.routes";

/** The ticket carries the credential it was asked with, and is checked against it at connect. */
const ticketCredential = (credential: Credential) =>
  credential.kind === "session"
    ? { sessionId: credential.sessionId }
    : credential.kind === "api_key"
      ? { apiKeyId: credential.keyId }
      : {};

export async function createTicket(c: AuthedRouteContext<CreateTicketRoute>) {
  const target = c.req.valid("json");
  const user = c.get("user");
  const credential = c.get("credential");
  requireScopes(credential, agentScopes(target.agent));
  const owner = await indexedOwner(c.var.dbs, target.agent, target.name);
  const access = agentAccess(target.agent, target.name, user.id, owner);
  if (!access.ok) throw new ApiError(access.status, access.message);
  // The gate's user, checked against D1 on this request: the ticket carries its current token version.
  const identity = { ...user, ...ticketCredential(credential) };
  const { ticket, expiresAt } = await issueTicket(jwtSecret(c.env), identity, target);
  return created(c, { ticket, expiresAt: expiresAt.toISOString() });
}
