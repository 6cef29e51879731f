// Runs in the Worker: the /agents gate and the ticket route decide who may reach an instance.
import type { ApiKeyScope } from "../db/credentials-schema";
import type { Databases } from "../db/databases";
import type { RoutableAgent } from "./agent-paths";
import { ownerIdFromChatName } from "../auth/chat-names";
import { isChatId } from "../chats/chat-ids";
import { ownerOfChat } from "../chats/chat-owners";
import { feedName } from "../core/feed-names";

export type AgentAccess = { ok: true } | { ok: false; status: 403 | 404; message: string };

const CHAT_NOT_FOUND: AgentAccess = { ok: false, status: 404, message: "Chat not found" };

/**
 * The owner of an instance the index keeps (a chat id): its user id, or null when no index holds it.
 * Undefined for every other instance, whose owner (if any) its name carries.
 */
export function indexedOwner(
  dbs: Databases,
  agent: RoutableAgent,
  name: string,
): Promise<number | null> | undefined {
  return agent === "chat-agent" && isChatId(name) ? ownerOfChat(dbs, name) : undefined;
}

/**
 * Who may reach an instance when it needs sign-in. A counter is a shared room: any signed-in user. A
 * chat of the index belongs to the user whose index holds it (`owner`, from indexedOwner()); anyone
 * else finds no such chat (404). A chat named `user-<id>[-<suffix>]` belongs to the user its name
 * carries and to nobody else; a todo feed is `user-<id>` exactly, its user's only one.
 */
export function agentAccess(
  agent: RoutableAgent,
  name: string,
  userId: number,
  owner?: number | null,
): AgentAccess {
  if (agent === "todo-feed-agent") {
    return name === feedName(userId)
      ? { ok: true }
      : { ok: false, status: 403, message: "Your todo feed is user-<your user id>" };
  }
  if (agent !== "chat-agent") return { ok: true };
  if (isChatId(name)) return owner === userId ? { ok: true } : CHAT_NOT_FOUND;
  const nameOwner = ownerIdFromChatName(name);
  if (nameOwner === null) {
    return {
      ok: false,
      status: 403,
      message: "Chat names must be user-<your user id> or user-<your user id>-<suffix>",
    };
  }
  return nameOwner === userId
    ? { ok: true }
    : { ok: false, status: 403, message: "This chat belongs to another user" };
}

/**
 * What an API key needs to reach an agent: `agents:connect`, and for a chat also both todo scopes and
 * `files:read`, since its tools read and (with the user's approval) write todos, and it reads the
 * user's files (attached to messages, or through its tools); for the todo feed also `todos:read`.
 */
export function agentScopes(agent: RoutableAgent): ApiKeyScope[] {
  if (agent === "chat-agent") return ["agents:connect", "todos:read", "todos:write", "files:read"];
  return agent === "todo-feed-agent" ? ["agents:connect", "todos:read"] : ["agents:connect"];
}
