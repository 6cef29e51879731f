import { queueTeamFeeds } from "../chats/agent-wipes";
import { orgOwner, userOwner, type Owner } from "../core/owner";
import type { Db } from "../db/client";
import type { Databases } from "../db/databases";
import { deleteMemberCopies } from "../orgs/team-role-copies.queries";
import { eraseWorkspaceRows, forgetAuthor } from "./workspace-erasure.queries";
import { eraseWorkspaceStorage } from "./workspace-storage-erasure.queries";
import { handOverTeamWork, teamOwners, teamsWithFilesOf } from "./team-handover.queries";

/**
 * An account's data, before its directory rows go: its personal workspace and those of the teams it owns
 * alone (`soleOwnedOrgIds`) in their shards (their objects and agents, a team's feed among them, queued under `erasureId` there), then
 * in every data database its authorship, and its work in other teams handed over to them (src/files/team-handover.queries.ts). Each step can run again, so a delete that stopped part way is
 * finished by its retry; the directory's batch comes last. Answers the data databases where it queued.
 */
export async function eraseAccountData(
  dbs: Databases,
  userId: number,
  soleOwnedOrgIds: readonly number[],
  erasureId: string,
): Promise<Db[]> {
  // Side by side: each workspace's steps touch only its own rows, and the authorship and handover only other
  // teams' rows, so the delete waits for the longest chain of round trips rather than for their sum.
  const owners = [userOwner(userId), ...soleOwnedOrgIds.map(orgOwner)];
  const [erased, handedOver] = await Promise.all([
    Promise.all(owners.map((owner) => eraseWorkspace(dbs, owner, erasureId))),
    dbs.all().then((all) => Promise.all(all.map(({ db }) => leaveTeamWork(dbs, db, userId, erasureId)))),
  ]);
  return [...new Set([...erased, ...handedOver])];
}

/**
 * What it did in other teams stays theirs, in one data database (a team it left included), and the copies of
 * its roles there go; that database.
 */
async function leaveTeamWork(dbs: Databases, db: Db, userId: number, erasureId: string): Promise<Db> {
  await forgetAuthor(db, userId);
  const orgIds = await teamsWithFilesOf(db, userId);
  const owners = orgIds.length > 0 ? await teamOwners(dbs.directory, orgIds) : [];
  await db.batch([...handOverTeamWork(db, userId, owners, erasureId), deleteMemberCopies(db, userId)]);
  return db;
}

/** One workspace's rows and storage, its objects and agents queued under `erasureId`; its data database. */
async function eraseWorkspace(dbs: Databases, owner: Owner, erasureId: string): Promise<Db> {
  const db = await dbs.of(owner);
  await eraseWorkspaceRows(db, owner);
  await eraseWorkspaceStorage(db, owner, erasureId);
  if (owner.kind === "org") await queueTeamFeeds(db, [owner.orgId], erasureId);
  return db;
}
