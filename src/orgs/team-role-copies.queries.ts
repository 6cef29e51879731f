import { and, eq, inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { ORG_ROLES, type OrgRole } from "../db/orgs-schema";
import { prebuilt, queryBuilder } from "../db/prebuilt";
import { teamRolesTable } from "../db/team-roles-schema";
import { can, type OrgAction } from "./org-roles";

// A data database's copy of members' roles (src/db/team-roles-schema.ts): the statements that read and
// write it. What decides when each runs is src/orgs/team-role-copies.ts.

const t = teamRolesTable;
const rolesThatCan = (action: OrgAction) => ORG_ROLES.filter((role) => can(role, action));

/** SQL: whether this database's copy says `userId` may `action` in team `orgId` (read in the statement itself). */
export function mayInTeam(orgId: SQL | Placeholder, userId: SQL | Placeholder, action: OrgAction): SQL {
  return sql`EXISTS (SELECT 1 FROM ${t} WHERE ${t.orgId} = ${orgId} AND ${t.userId} = ${userId} AND ${t.role} IN ${rolesThatCan(action)})`;
}

/** Prebuilt: a row when this database's copy says member `userId` may read team `orgId`'s data, none otherwise. */
export const copiedRoleReads = prebuilt(
  queryBuilder
    .select({ role: t.role })
    .from(t)
    .where(
      and(
        eq(t.orgId, sql.placeholder("orgId")),
        eq(t.userId, sql.placeholder("userId")),
        inArray(t.role, rolesThatCan("data:read")),
      ),
    ),
);

/** The copy of the member's role (null: blanked) and its generation; no row when none was ever copied. */
export function selectCopiedRole(db: Db, orgId: number, userId: number) {
  return db
    .select({ role: t.role, generation: t.generation })
    .from(t)
    .where(and(eq(t.orgId, orgId), eq(t.userId, userId)));
}

/**
 * Writes the role read from the directory, only while the copy is still at `generation` (0 for no row):
 * a role change or removal since then raised it, and this read may predate it.
 */
export function writeCopiedRole(db: Db, orgId: number, userId: number, role: OrgRole, generation: number) {
  return db
    .insert(t)
    .values({ orgId, userId, role, generation })
    .onConflictDoUpdate({
      target: [t.orgId, t.userId],
      set: { role },
      setWhere: eq(t.generation, generation),
    });
}

/** Blanks the members' copies and raises their generations (a missing row is made blank, at generation 1). */
export function blankCopiedRoles(db: Db, orgId: number, userIds: readonly number[]) {
  return db
    .insert(t)
    .values(userIds.map((userId) => ({ orgId, userId, role: null, generation: 1 })))
    .onConflictDoUpdate({
      target: [t.orgId, t.userId],
      set: { role: null, generation: sql`${t.generation} + 1` },
    });
}

/** Every copy of a team's roles (the team is deleted). */
export function deleteTeamCopies(db: Db, orgId: number) {
  return db.delete(t).where(eq(t.orgId, orgId));
}

/** Every copy of a user's roles (the account is deleted). */
export function deleteMemberCopies(db: Db, userId: number) {
  return db.delete(t).where(eq(t.userId, userId));
}
