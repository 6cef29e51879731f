// Runs in both: the Worker parses /agents paths; the Durable Objects answer closed sub-agent routes.
import { ownerIdFromChatName } from "../auth/chat-names";
import { isChatId } from "../chats/chat-ids";
import { errorBody } from "../http/errors";

/** The only Durable Objects reachable from outside: kebab-case route segment -> binding name. */
export const ROUTABLE_AGENTS = {
  "counter-agent": "CounterAgent",
  "chat-agent": "ChatAgent",
  "todo-feed-agent": "TodoFeedAgent",
} as const;
export type RoutableAgent = keyof typeof ROUTABLE_AGENTS;
export type RoutableBinding = (typeof ROUTABLE_AGENTS)[RoutableAgent];

/**
 * Instances that carry one user's private data: a todo feed, a chat of the index (a chat id), and a
 * chat named `user-<id>[-<suffix>]` (written with sign-in on, it must not turn public when the flag
 * goes off). Only their owner connects, whatever AGENTS_REQUIRE_AUTH says.
 */
export function isPrivateInstance(agent: RoutableAgent, name: string): boolean {
  if (agent === "todo-feed-agent") return true;
  return agent === "chat-agent" && (isChatId(name) || ownerIdFromChatName(name) !== null);
}

export { AGENT_NAME } from "../core/agent-names";

/** Sub-paths an agent documents; anything else (the SDK's `/sub/<agent>/<name>` child routing included) is closed. */
const SUB_PATHS: Record<RoutableAgent, readonly string[]> = {
  "counter-agent": [],
  "chat-agent": ["get-messages"],
  "todo-feed-agent": [],
};

export interface AgentPath {
  agent: RoutableAgent;
  /** The raw segment, as routeAgentRequest reads it (no percent-decoding); validated apart (AGENT_NAME). */
  name: string;
  /** A documented sub-path such as `get-messages`, or undefined for the instance itself. */
  subPath?: string;
}

export function isRoutableAgent(segment: string | undefined): segment is RoutableAgent {
  return segment !== undefined && Object.hasOwn(ROUTABLE_AGENTS, segment);
}

/**
 * `/agents/<agent>/<name>` or `/agents/<agent>/<name>/<documented sub-path>`, else null. Empty segments
 * (`//`, a trailing `/`) are not skipped, so no spelling reaches an agent through another route.
 */
export function parseAgentPath(pathname: string): AgentPath | null {
  const [empty, prefix, agent, name, subPath, ...rest] = pathname.split("/");
  if (empty !== "" || prefix !== "agents" || !isRoutableAgent(agent) || !name || rest.length > 0) return null;
  if (subPath !== undefined && !SUB_PATHS[agent].includes(subPath)) return null;
  return { agent, name, subPath };
}

/** What an agent answers if a `/sub/...` request ever reaches it (the Worker gate already answers 404). */
export function closedSubAgentRoute(): Response {
  return Response.json(errorBody("Agent not found"), { status: 404 });
}
