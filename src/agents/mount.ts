// Runs in the Worker: /agents/* routing in front of the Durable Objects.
import { routeAgentRequest } from "agents";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { agentsRequireAuth } from "../core/config";
import { AGENTS_CORS_HEADERS } from "../http/cors";
import type { AppRouter } from "../http/create-app";
import { errorBody, onError } from "../http/errors";
import type { AppEnv } from "../http/types";
import { clientIp, consume } from "../core/rate-limit";
import { authorizeAgentRequest } from "./agent-auth";
import { AGENT_NAME, isPrivateInstance, parseAgentPath, type RoutableBinding } from "./agent-paths";
import { forwardedRequest } from "./agent-request";
import { socketCredential } from "./socket-credential";
import type { CredentialIdentity } from "../auth/credential-liveness";

function reject(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  message: string,
  headers: Record<string, string> = {},
) {
  return c.json(errorBody(message), status, { ...AGENTS_CORS_HEADERS, ...headers });
}

/** An error answered as /api answers it (src/http/errors.ts), plus the agents' CORS headers. */
async function errorResponse(c: Context<AppEnv>, err: unknown): Promise<Response> {
  const res = await onError(err instanceof Error ? err : new Error(String(err)), c);
  for (const [name, value] of Object.entries(AGENTS_CORS_HEADERS)) res.headers.set(name, value);
  return res;
}

// routeAgentRequest maps every Durable Object namespace it finds in env; hand it only the agents.
function routableNamespaces(env: Env): Pick<Env, RoutableBinding> {
  return { CounterAgent: env.CounterAgent, ChatAgent: env.ChatAgent, TodoFeedAgent: env.TodoFeedAgent };
}

/**
 * The SDK answers an exception inside an agent with its stack as the body; nothing from inside an
 * agent reaches a client as a 5xx body: it is logged and answered generically.
 */
async function withoutInternals(c: Context<AppEnv>, response: Response): Promise<Response> {
  if (response.status < 500 || response.webSocket) return response;
  const detail = (await response.text()).slice(0, 2_000);
  c.get("logger").error("agent_error_response", { status: response.status, detail });
  return reject(c, 500, "Internal server error");
}

/**
 * /agents/<agent>/<name>[/<documented sub-path>]: allow-list, name bounds, rate limit, sign-in (opt-in,
 * always for a private instance: a todo feed, a chat of the index) and ownership, then the SDK's
 * routing with a request stripped of credentials and SDK-internal headers.
 */
export function mountAgents(app: AppRouter) {
  app.all("/agents/*", async (c) => {
    // The raw path, as routeAgentRequest reads it (no percent-decoding).
    const target = parseAgentPath(new URL(c.req.url).pathname);
    if (!target) return reject(c, 404, "Agent not found");
    const isWebSocket = c.req.header("Upgrade")?.toLowerCase() === "websocket";
    // Sub-paths are plain HTTP reads (the chat transcript); a socket opens on the instance itself.
    if (target.subPath !== undefined && isWebSocket) return reject(c, 404, "Agent not found");
    if (c.req.method === "OPTIONS") return c.body(null, 204, AGENTS_CORS_HEADERS);

    const ip = clientIp(c.req.raw.headers);
    try {
      // Counted before the name check, so probing with junk names spends the same budget.
      await consume(c.env.AGENTS_LIMITER, `agents:${ip}`);
    } catch (err) {
      return errorResponse(c, err);
    }
    if (!AGENT_NAME.test(target.name)) {
      return reject(c, 400, "Invalid agent name: use 1-64 characters from A-Z, a-z, 0-9, _ and -");
    }

    let caller = `ip:${ip}`;
    let credential: CredentialIdentity | undefined;
    if (agentsRequireAuth(c.env) || isPrivateInstance(target.agent, target.name)) {
      let verdict;
      try {
        verdict = await authorizeAgentRequest(c.env, c.req.raw, target, isWebSocket);
      } catch (err) {
        return errorResponse(c, err);
      }
      if (!verdict.ok) {
        c.get("logger").warn("agent_auth_rejected", { agent: target.agent, reason: verdict.reason });
        const challenge: Record<string, string> =
          verdict.status === 401 ? { "WWW-Authenticate": 'Bearer realm="agents"' } : {};
        return reject(c, verdict.status, verdict.message, challenge);
      }
      caller = `user:${verdict.user.id}`;
      credential = socketCredential(verdict.user, verdict.credential);
    }

    try {
      const response = await routeAgentRequest(
        forwardedRequest(c.req.raw, caller, credential),
        routableNamespaces(c.env),
        { cors: AGENTS_CORS_HEADERS },
      );
      return response ? await withoutInternals(c, response) : reject(c, 404, "Agent not found");
    } catch (err) {
      return errorResponse(c, err);
    }
  });
}
