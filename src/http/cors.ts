import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "./types";

// Every CORS policy of the Worker. /agents and /mcp take credentials in a header (or the query for a
// WebSocket), never in cookies, so any origin may call them; /api is limited to CORS_ORIGINS. The OAuth
// endpoints (src/oauth/mount.ts) answer any origin too: their credentials are in the body or a header.

/** /agents/*: cross-origin GET, POST and OPTIONS, as the agents' routes promise. */
export const AGENTS_CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
  "Access-Control-Max-Age": "86400",
};

/** /mcp: Streamable HTTP's methods and headers. */
export const MCP_CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Allow-Headers":
    "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, mcp-session-id",
  // A browser client reads the challenge that leads it to OAuth (resource_metadata, scope).
  "Access-Control-Expose-Headers": "WWW-Authenticate",
  "Access-Control-Max-Age": "86400",
};

const EXPOSE_HEADERS = [
  "Content-Disposition",
  "Content-Range",
  "ETag",
  "Retry-After",
  "X-Request-Id",
  "X-D1-Bookmark",
  "X-Todos-Cursor",
  "Idempotent-Replayed",
].join(",");

interface CorsPolicy {
  origins: ReadonlySet<string>;
  preflight: MiddlewareHandler;
}

// Built once per CORS_ORIGINS value rather than on every request.
let built: { value: string; policy: CorsPolicy } | undefined;

function policyFor(value: string): CorsPolicy {
  if (built?.value !== value) {
    const origins = value
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean);
    const preflight = cors({
      origin: origins,
      allowMethods: ["GET", "HEAD", "POST", "PUT", "OPTIONS"],
      allowHeaders: [
        "Authorization",
        "Content-Type",
        "Range",
        "If-None-Match",
        "If-Match",
        "Idempotency-Key",
        "X-Request-Id",
        "X-D1-Bookmark",
      ],
      maxAge: 600,
    });
    built = { value, policy: { origins: new Set(origins), preflight } };
  }
  return built.policy;
}

/**
 * /api/*: origins from CORS_ORIGINS (comma-separated). Tokens travel in a header, so no credentials mode.
 * Preflights are hono's cors(). Other requests get their headers on the final response, as
 * secureHeaders() sets its own: hono's cors() writes them on a placeholder response before the
 * handler runs and appends Vary by copying the answer, two extra Responses on every /api request.
 */
export const apiCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const policy = policyFor(c.env.CORS_ORIGINS);
  if (c.req.method === "OPTIONS") return policy.preflight(c, next);
  await next();
  const headers = c.res.headers;
  const origin = c.req.header("Origin");
  if (origin !== undefined && policy.origins.has(origin)) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
  }
  headers.append("Vary", "Origin");
};
