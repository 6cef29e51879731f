import { getSession } from "../auth/session";
import { AGENT_HOST, AGENTS_AUTH } from "../config";

/**
 * Where and how to reach an agent. Browsers cannot set headers on a WebSocket, so with
 * AGENTS_REQUIRE_AUTH on the service the token goes in `?token=` (the service strips it
 * before the agent sees the request and never logs query strings).
 */
export function agentOptions(agent: "counter-agent" | "chat-agent", name: string) {
  const token = AGENTS_AUTH ? getSession()?.token : undefined;
  return { ...AGENT_HOST, agent, name, ...(token ? { query: { token } } : {}) };
}

/** Headers for the agent's plain HTTP requests (the chat transcript), matching the socket's token. */
export function agentHeaders(): Record<string, string> {
  const token = AGENTS_AUTH ? getSession()?.token : undefined;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** Instance names the service accepts. */
export const AGENT_NAME_PATTERN = "[A-Za-z0-9_\\-]{1,64}";
