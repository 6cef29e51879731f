import { api, unwrap } from "../api/client";
import { getSession } from "../auth/session";
import { isChatId } from "../chats/chat-ids";
import { AGENT_HOST, AGENTS_AUTH } from "../config";

export type AgentKind = "counter-agent" | "chat-agent" | "todo-feed-agent";

const isPrivate = (agent: AgentKind, name: string) =>
  agent === "todo-feed-agent" || (agent === "chat-agent" && isChatId(name));

// An expiring cache entry makes useAgent open a new socket, so entries outlive the session (1 h token).
const TICKET_CACHE_MS = 60 * 60_000;

// One query function per instance, so useAgent sees the same function on every render.
const ticketQueries = new Map<string, () => Promise<{ ticket: string }>>();

/** A fresh 60 s connect ticket for one instance (POST /api/agents/tickets), for the WebSocket URL. */
function ticketQuery(agent: AgentKind, name: string) {
  const key = `${agent}/${name}`;
  let query = ticketQueries.get(key);
  if (!query) {
    query = async () => unwrap(api.POST("/api/agents/tickets", { body: { agent, name } }));
    ticketQueries.set(key, query);
  }
  return query;
}

/**
 * Where and how to reach an agent. With AGENTS_REQUIRE_AUTH on the service the WebSocket URL needs a
 * credential (browsers cannot set headers on a WebSocket): not the one-hour login token but a ticket
 * valid 60 s for this instance only. useAgent keeps the query's answer (it must, to render while the
 * ticket is fetched) and fetches a new one on every reconnect: a stale ticket costs one refused connect.
 */
export function agentOptions(agent: AgentKind, name: string) {
  // The todo feed and a chat of the index are private whatever the service's AGENTS_REQUIRE_AUTH says:
  // they always take a ticket.
  if (!AGENTS_AUTH && !isPrivate(agent, name)) return { ...AGENT_HOST, agent, name };
  return {
    ...AGENT_HOST,
    agent,
    name,
    query: ticketQuery(agent, name),
    queryDeps: [agent, name],
    cacheTtl: TICKET_CACHE_MS,
  };
}

/** Headers for the agent's plain HTTP requests (the chat transcript of `name`): the token, in a header. */
export function agentHeaders(name: string): Record<string, string> {
  const token = AGENTS_AUTH || isChatId(name) ? getSession()?.token : undefined;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** Instance names the service accepts. */
export const AGENT_NAME_PATTERN = "[A-Za-z0-9_\\-]{1,64}";

const CHAT_NAME_KEY = "workers-api-client.chat-name";

/**
 * The conversation a user opens first. With sign-in on, the service gives each user the chats named
 * `user-<id>[-<suffix>]`. With public agents the name is the only key to a chat, so each browser keeps
 * an unguessable one of its own.
 */
export function defaultChatName(userId: number): string {
  if (AGENTS_AUTH) return `user-${userId}`;
  let name = localStorage.getItem(CHAT_NAME_KEY);
  if (!name || !new RegExp(`^${AGENT_NAME_PATTERN}$`).test(name)) {
    name = `chat-${crypto.randomUUID()}`;
    localStorage.setItem(CHAT_NAME_KEY, name);
  }
  return name;
}
