import { Failure } from "../core/failures";
import type { Db } from "../db/client";
import type { Databases } from "../db/databases";
import { confirmTeamRole } from "../orgs/team-role-copies";
import { teamRefusal, type TodoAction } from "./todo-reach";

/** Refused by a team: the caller is not a member (404, as for a team that does not exist), or their role lacks the action (403). */
export class TeamAccessRefused extends Error {
  constructor(
    readonly notMember: boolean,
    message: string,
  ) {
    super(message);
    this.name = "TeamAccessRefused";
  }
}

/** The directory let the caller in, yet the statement's check refused again: their role changed meanwhile. */
export class TeamRoleChangedError extends Failure {
  readonly kind = "conflict";

  constructor() {
    super("Your role in this team changed during the request, and nothing was written: try again");
    this.name = "TeamRoleChangedError";
  }
}

/**
 * Runs `attempt`, a statement on team `orgId`'s data database `db` that checks the caller's role in the
 * database's copy (src/orgs/team-role-copies.ts) and answers null when it refuses. A refusal reads the
 * role from the directory (copying it), then throws TeamAccessRefused, or tries once more: a copy missing
 * (the member's first write there, a role changed since) costs one extra round trip, once.
 */
export async function withTeamRole<T>(
  dbs: Databases,
  db: Db,
  orgId: number,
  userId: number,
  action: TodoAction,
  attempt: () => Promise<T | null>,
): Promise<T> {
  const first = await attempt();
  if (first !== null) return first;
  const refused = teamRefusal(await confirmTeamRole(dbs, db, orgId, userId, action), action);
  if (refused) throw new TeamAccessRefused(refused.notMember, refused.message);
  const again = await attempt();
  if (again === null) throw new TeamRoleChangedError();
  return again;
}
