// Runs in the Durable Object: the chat agent's todo and file tools.
import type { ToolSet } from "ai";
import { aiSdkTools } from "../ai/ai-sdk-tools";
import { createTodoTools } from "../todos/todo-tools";
import { createFileTools } from "../files/file-tools";
import { createDb, type Db } from "../db/client";
import { agentsRequireAuth } from "../core/config";
import type { Logger } from "../core/logger";
import { ownerIdFromChatName } from "../auth/chat-names";
import { isChatId } from "../chats/chat-ids";
import { chatOwner } from "../chats/chats.queries";

export const TOOLS_PROMPT =
  "You can read and change the user's todos with the tools. Changes run only after the user approves them; " +
  "if the user denies one, say so and do not retry it. You can also list the user's files and read their " +
  "text files (listFiles, readFile) when the user names one.";

/**
 * Whose chat this is: an indexed chat's owner (only they reach it, whatever AGENTS_REQUIRE_AUTH says);
 * with sign-in on, the user a `user-<id>[-<suffix>]` name carries; else nobody, since in public mode
 * anyone can reach an instance. Only an owner's chat has tools and reads files.
 */
export async function chatOwnerId(env: Env, db: Db, chatName: string): Promise<number | null> {
  if (isChatId(chatName)) return chatOwner(db, chatName);
  return agentsRequireAuth(env) ? ownerIdFromChatName(chatName) : null;
}

/**
 * The todo and file tools of the chat's owner, or none. `waitUntil` is the agent's: a write's feed wake and
 * reminder sync run after the tool's answer, as for REST and MCP.
 */
export async function chatTools(
  env: Env,
  chatName: string,
  logger: Logger,
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<ToolSet | undefined> {
  const db = createDb(env.DB);
  const owner = await chatOwnerId(env, db, chatName);
  if (owner === null) return undefined;
  return aiSdkTools({
    ...createTodoTools({ env, db, logger, waitUntil }, owner),
    ...createFileTools(db, env.R2_BUCKET, owner),
  });
}
