// The registry of where a user's credential-opened sockets are (agent_sockets_table).
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { agentSocketsTable } from "../db/credentials-schema";
import type { RoutableAgent } from "./agent-paths";

export interface AgentSocketsRow {
  userId: number;
  agent: RoutableAgent;
  name: string;
}

/** Lists the instance as holding sockets of the user (once). */
export async function registerSockets(db: Db, row: AgentSocketsRow): Promise<void> {
  await db.insert(agentSocketsTable).values(row).onConflictDoNothing();
}

/** The instance holds no more sockets of the user. */
export async function unregisterSockets(db: Db, { userId, agent, name }: AgentSocketsRow): Promise<void> {
  await db
    .delete(agentSocketsTable)
    .where(
      and(
        eq(agentSocketsTable.userId, userId),
        eq(agentSocketsTable.agent, agent),
        eq(agentSocketsTable.name, name),
      ),
    );
}

/** Every instance listed as holding sockets of the user. */
export async function listSocketHolders(db: Db, userId: number): Promise<AgentSocketsRow[]> {
  const rows = await db
    .select({ agent: agentSocketsTable.agent, name: agentSocketsTable.name })
    .from(agentSocketsTable)
    .where(eq(agentSocketsTable.userId, userId));
  return rows.map((row) => ({ userId, agent: row.agent as RoutableAgent, name: row.name }));
}
