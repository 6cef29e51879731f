// Runs in the chat's Durable Object and in /mcp: the teams whose orgId the todo and file tools take.
import { z } from "@hono/zod-openapi";
import type { Db } from "../db/client";
import type { TodoTool } from "../core/tools";
import { listOrgsOf } from "./orgs.queries";

const TEAMS_LIMIT = 100;

const ListInput = z.object({});

/** listTeams over the teams of `userId` (bound here, never an argument): it only reads. */
export function createTeamTools(db: Db, userId: number): Record<string, TodoTool> {
  const listTeams: TodoTool<typeof ListInput> = {
    description: `List the teams the user belongs to (at most ${TEAMS_LIMIT}), with their role in each: pass a team's id as orgId to the todo and file tools. A viewer only reads; members, admins and the owner also write.`,
    inputSchema: ListInput,
    writes: false,
    async execute() {
      const rows = await listOrgsOf(db, userId, undefined, TEAMS_LIMIT);
      return { items: rows.slice(0, TEAMS_LIMIT).map(({ id, name, role }) => ({ id, name, role })) };
    },
  };
  return { listTeams } as Record<string, TodoTool>;
}
