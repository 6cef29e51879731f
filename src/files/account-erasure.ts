import { orgOwner, userOwner } from "../core/owner";
import type { Databases } from "../db/databases";
import { eraseWorkspaceRows, forgetAuthor } from "./workspace-erasure.queries";

/**
 * An account's data, before its directory rows go: its personal workspace and those of the teams it owns
 * alone (`soleOwnedOrgIds`) in their shards, then its authorship in every data database. Each step can run
 * again, so a delete that stopped part way is finished by its retry; the directory's batch comes last.
 */
export async function eraseAccountData(
  dbs: Databases,
  userId: number,
  soleOwnedOrgIds: readonly number[],
): Promise<void> {
  for (const owner of [userOwner(userId), ...soleOwnedOrgIds.map(orgOwner)]) {
    await eraseWorkspaceRows(await dbs.of(owner), owner);
  }
  for (const { db } of await dbs.all()) await forgetAuthor(db, userId);
}
