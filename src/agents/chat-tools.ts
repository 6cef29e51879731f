// Runs in the Durable Object: the chat agent's todo tools.
import type { ToolSet } from "ai";
import { aiSdkTools } from "../ai/ai-sdk-tools";
import { createTodoTools } from "../todos/todo-tools";
import { createDb } from "../db/client";
import { agentsRequireAuth } from "../core/config";
import type { Logger } from "../core/logger";
import { ownerIdFromChatName } from "../auth/chat-names";

export const TOOLS_PROMPT =
  "You can read and change the user's todos with the tools. Changes run only after the user approves them; " +
  "if the user denies one, say so and do not retry it.";

/**
 * The todo tools of the chat's owner, or none: in public mode (AGENTS_REQUIRE_AUTH off) anyone can reach
 * an instance, and a name that carries no user id belongs to nobody. `waitUntil` is the agent's: a
 * write's feed publish and reminder sync run after the tool's answer, as for REST and MCP.
 */
export function chatTools(
  env: Env,
  chatName: string,
  logger: Logger,
  waitUntil: (promise: Promise<unknown>) => void,
): ToolSet | undefined {
  if (!agentsRequireAuth(env)) return undefined;
  const owner = ownerIdFromChatName(chatName);
  if (owner === null) return undefined;
  return aiSdkTools(createTodoTools({ env, db: createDb(env.DB), logger, waitUntil }, owner));
}
