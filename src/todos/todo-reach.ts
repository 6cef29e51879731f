import { and, eq, inArray, isNotNull, or, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import type { OrgRole } from "../db/orgs-schema";
import { todosTable } from "../db/schema";
import { deletedTodosTable } from "../db/trash-schema";
import { orgOwner, userOwner, type Owner } from "../core/owner";
import { TEAM_NOT_FOUND } from "../orgs/membership";
import { can } from "../orgs/org-roles";

/** What a caller does to a team's todo: the team action it needs (src/orgs/org-roles.ts). */
export type TodoAction = "data:read" | "data:write";

/** Whose todos a query reaches: the user's own, and those of the teams listed (with the user's role there). */
export interface TodoReach {
  userId: number;
  teams: ReadonlyMap<number, OrgRole>;
}

type TodoColumns = typeof todosTable | typeof deletedTodosTable;

/**
 * The WHERE condition of the todos `reach` may `action`: ownership and the role (read from the directory
 * with the request's routes, src/todos/todo-places.ts) are in the statement of the read or write, so a todo
 * out of reach is an ordinary miss (404).
 */
export function reachable(reach: TodoReach, action: TodoAction, t: TodoColumns = todosTable): SQL {
  const own = eq(t.userId, reach.userId);
  const teams = [...reach.teams].filter(([, role]) => can(role, action)).map(([orgId]) => orgId);
  return teams.length === 0 ? own : or(own, inArray(t.orgId, teams))!;
}

/** The team of todo `id` (live or in the trash) in `db`, or null when it is nobody's team's there. */
export async function teamOfTodo(db: Db, id: number): Promise<number | null> {
  const teamIn = (t: TodoColumns) =>
    db
      .select({ orgId: t.orgId })
      .from(t)
      .where(and(eq(t.id, id), isNotNull(t.orgId)));
  const [live, deleted] = await db.batch([teamIn(todosTable), teamIn(deletedTodosTable)]);
  return live[0]?.orgId ?? deleted[0]?.orgId ?? null;
}

/** The 403's message for a member whose role lacks the action. */
export function roleRefusal(role: OrgRole, action: TodoAction): string {
  const what = action === "data:write" ? "change" : "read";
  return `Your role in this team (${role}) may not ${what} its todos (${action})`;
}

/** Whose todos a list or create names, or why not: the caller isn't a member (404), or their role lacks the action (403). */
export type NamedOwner = { ok: true; owner: Owner } | { ok: false; notMember: boolean; message: string };

/**
 * The owner an optional `orgId` names for the reach's user (REST's `orgId`, a tool's): the user without it,
 * the team when their role may `action`.
 */
export function todoOwnerFor(reach: TodoReach, orgId: number | undefined, action: TodoAction): NamedOwner {
  if (orgId === undefined) return { ok: true, owner: userOwner(reach.userId) };
  return teamRefusal(reach.teams.get(orgId), action) ?? { ok: true, owner: orgOwner(orgId) };
}

/** Why a team's member with `role` (none: not a member) may not `action` its todos; null when they may. */
export function teamRefusal(
  role: OrgRole | null | undefined,
  action: TodoAction,
): Extract<NamedOwner, { ok: false }> | null {
  if (!role) return { ok: false, notMember: true, message: TEAM_NOT_FOUND };
  if (!can(role, action)) return { ok: false, notMember: false, message: roleRefusal(role, action) };
  return null;
}
