// Runs in the Worker: after a write that ended credentials, each instance holding the user's sockets re-checks them.
import type { Logger } from "../core/logger";
import { wasWiped } from "../core/agent-reset";
import { openDatabases } from "../db/databases";
import { listSocketHolders, unregisterSockets, type AgentSocketsRow } from "./agent-sockets.queries";

function holder(env: Env, { agent, name }: AgentSocketsRow) {
  if (agent === "chat-agent") return env.ChatAgent.getByName(name);
  if (agent === "todo-feed-agent") return env.TodoFeedAgent.getByName(name);
  return env.CounterAgent.getByName(name);
}

/**
 * Asks every instance listed as holding sockets of `userId` (agent_sockets_table) to re-check them
 * (SocketGuard.recheck): each closes those whose credential has ended. Answers how many closed.
 */
export async function sweepAgentSockets(env: Env, userId: number, logger: Logger): Promise<number> {
  const db = openDatabases(env).directory;
  const holders = await listSocketHolders(db, userId);
  const results = await Promise.allSettled(holders.map((row) => holder(env, row).recheckSockets(userId)));
  let closed = 0;
  for (const [i, result] of results.entries()) {
    if (result.status === "fulfilled") closed += result.value;
    // An instance reset by its wipe meanwhile (an account's delete) closed its sockets itself.
    else if (wasWiped(result.reason)) await unregisterSockets(db, holders[i]!);
    else logger.warn("agent_sockets_recheck_failed", { ...holders[i], error: String(result.reason) });
  }
  if (holders.length > 0)
    logger.info("agent_sockets_rechecked", { userId, instances: holders.length, closed });
  return closed;
}
