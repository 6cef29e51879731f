// Runs in the Worker: the /agents gate and the ticket route decide who may reach an instance.
import type { ApiKeyScope } from "../db/credentials-schema";
import type { RoutableAgent } from "./agent-paths";
import { ownerIdFromChatName } from "../auth/chat-names";
import { feedName } from "../todos/todo-events";

export type AgentAccess = { ok: true } | { ok: false; message: string };

/**
 * Who may reach an instance when agents require sign-in. A counter is a shared room: any signed-in
 * user. A chat belongs to the user its name carries (`user-<id>[-<suffix>]`) and to nobody else; a
 * todo feed is `user-<id>` exactly, its user's only one.
 */
export function agentAccess(agent: RoutableAgent, name: string, userId: number): AgentAccess {
  if (agent === "todo-feed-agent") {
    return name === feedName(userId)
      ? { ok: true }
      : { ok: false, message: "Your todo feed is user-<your user id>" };
  }
  if (agent !== "chat-agent") return { ok: true };
  const owner = ownerIdFromChatName(name);
  if (owner === null) {
    return { ok: false, message: "Chat names must be user-<your user id> or user-<your user id>-<suffix>" };
  }
  return owner === userId ? { ok: true } : { ok: false, message: "This chat belongs to another user" };
}

/**
 * What an API key needs to reach an agent: `agents:connect`, and for a chat also both todo scopes,
 * since its tools read and (with the user's approval) write todos; for the todo feed also `todos:read`.
 */
export function agentScopes(agent: RoutableAgent): ApiKeyScope[] {
  if (agent === "chat-agent") return ["agents:connect", "todos:read", "todos:write"];
  return agent === "todo-feed-agent" ? ["agents:connect", "todos:read"] : ["agents:connect"];
}
