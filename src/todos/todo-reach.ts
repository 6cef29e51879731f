import { and, eq, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { orgMembersTable, ORG_ROLES, type OrgRole } from "../db/orgs-schema";
import { todosTable } from "../db/schema";
import { deletedTodosTable } from "../db/trash-schema";
import { orgOwner, userOwner, type Owner } from "../core/owner";
import { memberRole, TEAM_NOT_FOUND } from "../orgs/membership";
import { can } from "../orgs/org-roles";

/** What a caller does to a team's todo: the team action it needs (src/orgs/org-roles.ts). */
export type TodoAction = "data:read" | "data:write";

/** Whose todos a query reaches: the user's own, and with `teams` those of their teams where their role allows. */
export interface TodoReach {
  userId: number;
  teams: boolean;
}

type TodoColumns = typeof todosTable | typeof deletedTodosTable;

const rolesThatCan = (action: TodoAction) => ORG_ROLES.filter((role) => can(role, action));

/** SQL: whether `userId` is a member of team `orgId` whose role may `action` (read in the statement itself). */
export function mayInTeam(orgId: SQL | Placeholder, userId: SQL | Placeholder, action: TodoAction): SQL {
  const m = orgMembersTable;
  return sql`EXISTS (SELECT 1 FROM ${m} WHERE ${m.orgId} = ${orgId} AND ${m.userId} = ${userId} AND ${m.role} IN ${rolesThatCan(action)})`;
}

/**
 * The WHERE condition of the todos `reach` may `action`: ownership and the role are checked in the same
 * statement as the read or write, so a todo out of reach is an ordinary miss (404), and a member
 * removed a moment ago reaches nothing.
 */
export function reachable(reach: TodoReach, action: TodoAction, t: TodoColumns = todosTable): SQL {
  const own = eq(t.userId, reach.userId);
  if (!reach.teams) return own;
  const m = orgMembersTable;
  const roles = rolesThatCan(action);
  const teams = sql`${t.orgId} IN (SELECT ${m.orgId} FROM ${m} WHERE ${m.userId} = ${reach.userId} AND ${m.role} IN ${roles})`;
  return or(own, teams)!;
}

/**
 * Why `userId` may not `action` todo `id` (live or in the trash), when it is their team's and their
 * role lacks the action: the 403's message. Null otherwise: the todo is then not theirs to know of (404).
 */
export async function deniedTodoAction(
  db: Db,
  id: number,
  userId: number,
  action: TodoAction,
): Promise<string | null> {
  const m = orgMembersTable;
  const roleIn = (t: TodoColumns) =>
    db
      .select({ role: m.role })
      .from(t)
      .innerJoin(m, and(eq(m.orgId, t.orgId), eq(m.userId, userId)))
      .where(eq(t.id, id));
  const [live, deleted] = await db.batch([roleIn(todosTable), roleIn(deletedTodosTable)]);
  const role: OrgRole | undefined = live[0]?.role ?? deleted[0]?.role;
  return !role || can(role, action) ? null : roleRefusal(role, action);
}

/** The 403's message for a member whose role lacks the action. */
export function roleRefusal(role: OrgRole, action: TodoAction): string {
  const what = action === "data:write" ? "change" : "read";
  return `Your role in this team (${role}) may not ${what} its todos (${action})`;
}

/** Whose todos a list or create names, or why not: the caller isn't a member (404), or their role lacks the action (403). */
export type NamedOwner = { ok: true; owner: Owner } | { ok: false; notMember: boolean; message: string };

/**
 * The owner an optional `orgId` names for `userId` (REST's `orgId`, a tool's): the user without it, the
 * team when their role may `action`.
 */
export async function todoOwnerFor(
  db: Db,
  userId: number,
  orgId: number | undefined,
  action: TodoAction,
): Promise<NamedOwner> {
  if (orgId === undefined) return { ok: true, owner: userOwner(userId) };
  const role = await memberRole(db, orgId, userId);
  if (!role) return { ok: false, notMember: true, message: TEAM_NOT_FOUND };
  if (!can(role, action)) return { ok: false, notMember: false, message: roleRefusal(role, action) };
  return { ok: true, owner: orgOwner(orgId) };
}
