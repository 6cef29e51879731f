import { apiOriginOf } from "./security-policy";

/**
 * The service's origin; REST calls, agent WebSockets and answers' images all go there. By default the
 * page's own: the service serves this app at /app/, and `npm run client` proxies to the service.
 */
export const API_ORIGIN = apiOriginOf(import.meta.env.VITE_API_ORIGIN) ?? window.location.origin;

/** Send the JWT to /agents/* too (the service's opt-in AGENTS_REQUIRE_AUTH). */
export const AGENTS_AUTH = import.meta.env.VITE_AGENTS_AUTH === "true";

/** `useAgent` options that point agent connections at the service (ws:// or wss:// to match the origin). */
export const AGENT_HOST = {
  host: new URL(API_ORIGIN).host,
  protocol: API_ORIGIN.startsWith("https:") ? "wss" : "ws",
} as const;
