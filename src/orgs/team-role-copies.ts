import type { Db } from "../db/client";
import type { Databases } from "../db/databases";
import type { OrgRole } from "../db/orgs-schema";
import { readMemberRole } from "./membership";
import { can, type OrgAction } from "./org-roles";
import {
  blankCopiedRoles,
  deleteTeamCopies,
  selectCopiedRole,
  writeCopiedRole,
} from "./team-role-copies.queries";

// The copies of members' roles in the data databases (src/db/team-roles-schema.ts) follow the directory:
// written from it when a team statement's check refuses, blanked around every change that takes a role
// away or alters it, deleted with the team or the account. A copy never grants what the directory does
// not: a check that finds none, or a blank, asks the directory.

/**
 * The member's role in team `orgId` as the directory has it now (what a check that the copy in `db`, the
 * team's data database, refused asks), copied there when it may `action`: a refused request writes
 * nothing. The copy's generation is read before the directory: a role change or removal landing in
 * between raises it after its directory write, so this older read is not written.
 */
export async function confirmTeamRole(
  dbs: Databases,
  db: Db,
  orgId: number,
  userId: number,
  action: OrgAction,
): Promise<OrgRole | null> {
  const [copy] = await selectCopiedRole(db, orgId, userId);
  const role = await readMemberRole(dbs.directory, orgId, userId);
  if (role !== null && role !== copy?.role && can(role, action)) {
    await writeCopiedRole(db, orgId, userId, role, copy?.generation ?? 0);
  }
  return role;
}

/** Blanks the members' copies in every data database (a team's may be in any after a move). */
export async function blankTeamRoles(dbs: Databases, orgId: number, userIds: readonly number[]) {
  const all = await dbs.all();
  await Promise.all(all.map(({ db }) => blankCopiedRoles(db, orgId, userIds)));
}

/**
 * Runs `change`, a directory write that alters or takes away the members' roles (a role change, a
 * removal), with their copies blanked before and after it: before, so no copy grants while it runs;
 * after, so that a copy written meanwhile from an older directory read cannot stand. Each member's next
 * team write or list copies the role again.
 */
export async function withRolesBlanked<T>(
  dbs: Databases,
  orgId: number,
  userIds: readonly number[],
  change: () => Promise<T>,
): Promise<T> {
  await blankTeamRoles(dbs, orgId, userIds);
  const result = await change();
  await blankTeamRoles(dbs, orgId, userIds);
  return result;
}

/** A deleted team's copies, in every data database. */
export async function forgetTeamRoles(dbs: Databases, orgId: number): Promise<void> {
  const all = await dbs.all();
  await Promise.all(all.map(({ db }) => deleteTeamCopies(db, orgId)));
}
