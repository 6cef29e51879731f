import type { Db } from "../db/client";
import { OrgConflict } from "./org-failures";
import { deleteSoleOwnedOrgs, ownedOrgs, soleOwnedOrgIds } from "./orgs.queries";

/**
 * Before an account is deleted: 409 naming the teams it owns that have other members (their ownership
 * must move, or the team be deleted, first); otherwise the statement that deletes the teams it owns
 * alone, for the delete's own batch (wrapped: a query builder awaited on its own would run), and a
 * subquery of their ids (to erase their files in that batch first).
 */
export async function ownedOrgsGoingWith(db: Db, userId: number) {
  const owned = await ownedOrgs(db, userId);
  const blocking = owned.filter((org) => org.otherMembers > 0);
  if (blocking.length > 0) {
    const names = blocking.map((org) => `"${org.name}" (${org.id})`).join(", ");
    throw new OrgConflict(
      `This account owns teams with other members: ${names}. Transfer their ownership or delete them first`,
    );
  }
  return {
    statement: deleteSoleOwnedOrgs(db, userId),
    orgIds: soleOwnedOrgIds(userId),
    // The same teams, listed: their workspaces are erased in their shards before the directory's batch.
    orgIdList: owned.map((org) => org.id),
  };
}
