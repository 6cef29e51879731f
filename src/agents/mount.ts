import { routeAgentRequest } from "agents";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { agentsRequireAuth } from "../lib/config";
import type { AppRouter } from "../lib/create-app";
import { errorBody, onError } from "../lib/errors";
import type { AppEnv } from "../lib/types";
import { clientIp, consume } from "../services/rate-limit";
import { agentToken, authenticateAgentRequest } from "./agent-auth";

/** The only Durable Objects reachable from outside: kebab-case route segment -> binding name. */
export const ROUTABLE_AGENTS = { "counter-agent": "CounterAgent", "chat-agent": "ChatAgent" } as const;
type RoutableBinding = (typeof ROUTABLE_AGENTS)[keyof typeof ROUTABLE_AGENTS];

// Every new name persists a Durable Object, so names are short and plain.
export const AGENT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

// Tokens travel in a header or the query, never in cookies, so no credentials and `*` is safe.
export const AGENTS_CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
  "Access-Control-Max-Age": "86400",
};

function isRoutable(segment: string | undefined): segment is keyof typeof ROUTABLE_AGENTS {
  return segment !== undefined && Object.hasOwn(ROUTABLE_AGENTS, segment);
}

function reject(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  message: string,
  headers: Record<string, string> = {},
) {
  return c.json(errorBody(message), status, { ...AGENTS_CORS_HEADERS, ...headers });
}

/** An error answered as /api answers it (src/lib/errors.ts), plus the agents' CORS headers. */
async function errorResponse(c: Context<AppEnv>, err: unknown): Promise<Response> {
  const res = await onError(err instanceof Error ? err : new Error(String(err)), c);
  for (const [name, value] of Object.entries(AGENTS_CORS_HEADERS)) res.headers.set(name, value);
  return res;
}

// routeAgentRequest maps every Durable Object namespace it finds in env; hand it only the agents.
function routableNamespaces(env: Env): Pick<Env, RoutableBinding> {
  return { CounterAgent: env.CounterAgent, ChatAgent: env.ChatAgent };
}

/** Drops `?token=` so it never reaches the agent (or anything it logs). */
function withoutToken(request: Request): Request {
  const url = new URL(request.url);
  if (!url.searchParams.has("token")) return request;
  url.searchParams.delete("token");
  return new Request(url, request);
}

/** /agents/<agent>/<name>: allow-list, name bounds, rate limit, opt-in JWT gate, then the SDK's routing. */
export function mountAgents(app: AppRouter) {
  app.all("/agents/*", async (c) => {
    // The raw path, as routeAgentRequest reads it (no percent-decoding).
    const [, agent, name] = new URL(c.req.url).pathname.split("/").filter(Boolean);
    if (!isRoutable(agent) || name === undefined) return reject(c, 404, "Agent not found");
    if (c.req.method === "OPTIONS") return c.body(null, 204, AGENTS_CORS_HEADERS);

    // Counted before the name check, so probing with junk names spends the same budget.
    try {
      await consume(c.env.AGENTS_LIMITER, `agents:${clientIp(c.req.raw.headers)}`);
    } catch (err) {
      return errorResponse(c, err);
    }
    if (!AGENT_NAME.test(name)) {
      return reject(c, 400, "Invalid agent name: use 1-64 characters from A-Z, a-z, 0-9, _ and -");
    }

    const requireAuth = agentsRequireAuth(c.env);
    const gate = async (request: Request): Promise<Request | Response> => {
      if (!requireAuth) return request;
      const isWebSocket = request.headers.get("Upgrade")?.toLowerCase() === "websocket";
      const token = agentToken(request, isWebSocket);
      const result = token ? await authenticateAgentRequest(c.env, token) : undefined;
      if (!result?.ok) {
        c.get("logger").warn("agent_auth_rejected", { agent, reason: result?.reason ?? "missing" });
        return reject(c, 401, "Unauthorized", { "WWW-Authenticate": 'Bearer realm="agents"' });
      }
      return withoutToken(request);
    };

    const response = await routeAgentRequest(c.req.raw, routableNamespaces(c.env), {
      cors: AGENTS_CORS_HEADERS,
      onBeforeConnect: gate,
      onBeforeRequest: gate,
    });
    return response ?? reject(c, 404, "Agent not found");
  });
}
