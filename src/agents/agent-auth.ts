// Runs in the Worker: the /agents gate's sign-in check, before a request reaches a Durable Object.
import {
  AUTH_FAILURE_MESSAGES,
  authenticate,
  authenticateClaims,
  type AuthResult,
} from "../auth/authenticate";
import { bearerToken } from "../auth/bearer";
import type { AuthUser, Credential } from "../auth/credentials";
import { verifyTicket } from "../auth/tickets";
import { jwtSecret } from "../auth/tokens";
import { isApiKey } from "../auth/api-keys/api-keys";
import { noteKeyUse } from "../auth/api-keys/key-auth";
import type { Db } from "../db/client";
import { openDatabases } from "../db/databases";
import { spendTicket } from "../auth/used-tickets.queries";
import { missingScope } from "../auth/scopes";
import { agentAccess, agentScopes, indexedOwner } from "./agent-access";
import type { AgentPath } from "./agent-paths";

export type AgentAuthorization =
  | { ok: true; user: AuthUser; credential: Credential }
  | { ok: false; status: 401 | 403 | 404; message: string; reason: string };

/**
 * The bearer token (or API key) from `Authorization`, or for a WebSocket upgrade (browsers cannot set
 * headers) a login token in `?token=`. An API key in the URL is refused: it lives for months, and URLs
 * end up in logs.
 */
export function agentToken(request: Request, isWebSocket: boolean): string | undefined {
  const fromHeader = bearerToken(request.headers.get("Authorization"));
  if (fromHeader) return fromHeader;
  const fromQuery = isWebSocket ? new URL(request.url).searchParams.get("token") : null;
  return fromQuery !== null && !isApiKey(fromQuery) ? fromQuery : undefined;
}

/**
 * A WebSocket upgrade's connect ticket (POST /api/agents/tickets): when present, the only credential
 * read. It opens one socket: the first upgrade that presents it records it as used.
 */
async function authenticateTicket(
  env: Env,
  db: Db,
  ticket: string,
  target: AgentPath,
): Promise<AuthResult | "invalid" | "used"> {
  const claims = await verifyTicket(jwtSecret(env), ticket, target);
  if (!claims) return "invalid";
  if (!(await spendTicket(db, claims.jti, new Date(claims.exp * 1000)))) return "used";
  return authenticateClaims(env, claims, db);
}

/**
 * The agents gate with AGENTS_REQUIRE_AUTH on: who calls (authenticated exactly as /api does, through
 * src/auth/authenticate.ts), then whether that user may reach this instance (src/agents/agent-access.ts).
 */
export async function authorizeAgentRequest(
  env: Env,
  request: Request,
  target: AgentPath,
  isWebSocket: boolean,
): Promise<AgentAuthorization> {
  const dbs = openDatabases(env);
  const db = dbs.directory;
  // A chat of the index: its owner is read while the caller is authenticated (the connect waits for one
  // round trip, not two). Settled here, so a refusal before it is read leaves no rejection unhandled.
  const owner = indexedOwner(dbs, target.agent, target.name)?.then(
    (userId) => ({ userId }),
    (error: unknown) => ({ error }),
  );
  const ticket = isWebSocket ? new URL(request.url).searchParams.get("ticket") : null;
  let result: AuthResult;
  if (ticket !== null) {
    const fromTicket = await authenticateTicket(env, db, ticket, target);
    if (fromTicket === "invalid") {
      return { ok: false, status: 401, message: "Invalid or expired ticket", reason: "invalid_ticket" };
    }
    if (fromTicket === "used") {
      return {
        ok: false,
        status: 401,
        message: "Ticket already used: ask for a new one",
        reason: "used_ticket",
      };
    }
    result = fromTicket;
  } else {
    const token = agentToken(request, isWebSocket);
    if (!token) return { ok: false, status: 401, message: "Unauthorized", reason: "missing" };
    result = await authenticate(env, token);
  }
  if (!result.ok) {
    return { ok: false, status: 401, message: AUTH_FAILURE_MESSAGES[result.reason], reason: result.reason };
  }
  const missing = missingScope(result.credential, agentScopes(target.agent));
  if (missing) {
    return { ok: false, status: 403, message: `This API key lacks the scope ${missing}`, reason: "scope" };
  }
  const indexed = await owner;
  if (indexed && "error" in indexed) throw indexed.error;
  const access = agentAccess(target.agent, target.name, result.user.id, indexed?.userId);
  if (!access.ok) return { ok: false, status: access.status, message: access.message, reason: "not_owner" };
  await noteKeyUse(db, result.credential);
  return { ok: true, user: result.user, credential: result.credential };
}
