import { placementShards } from "../../db/shard-names";
import { orgOwner } from "../../core/owner";
import { eraseWorkspaceRows } from "../../files/workspace-erasure.queries";
import { eraseWorkspaceStorage } from "../../files/workspace-storage-erasure.queries";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { auditActorOf } from "../../http/audit-actor";
import { queueTeamFeeds, wipeNowIfFew } from "../../chats/agent-wipes";
import { eraseNowIfSmall, queueOrgObjects } from "../../files/erasure";
import type { AuthedRouteContext } from "../../http/types";
import { joinTeamFeed } from "../../todos/team-feeds";
import { forgetMembership, memberRole } from "../../orgs/membership";
import { blankTeamRoles, forgetTeamRoles } from "../../orgs/team-role-copies";
import * as queries from "../../orgs/orgs.queries";
import { OrgConflict } from "../../orgs/org-failures";
import { orgLimits, TRANSFER_TTL_MS } from "../../orgs/org-settings";
import { TEAM_NOT_FOUND, type OrgRouteContext } from "./org-access";
import { keysetPage, orgView } from "./org-views";
import type * as R from "./orgs.routes";

const teamGone = () => new ApiError(404, TEAM_NOT_FOUND);

export async function create(c: AuthedRouteContext<R.CreateRoute>) {
  const { name } = c.req.valid("json");
  const user = c.get("user");
  const db = c.var.dbs.directory;
  const limit = orgLimits(c.env).teamsPerUser;
  if ((await queries.countMemberships(db, user.id)) >= limit) {
    throw new OrgConflict(`An account belongs to at most ${limit} teams: leave or delete one first`);
  }
  const org = await queries.insertOrg(db, name, auditActorOf(c), placementShards(c.env));
  c.get("logger").info("org_created", { orgId: org.id, userId: user.id });
  c.executionCtx.waitUntil(joinTeamFeed(c.env, c.get("logger"), org.id, user.id));
  return created(c, orgView(org, "owner"));
}

export async function list(c: AuthedRouteContext<R.ListRoute>) {
  const { cursor, limit } = c.req.valid("query");
  const rows = await queries.listOrgsOf(c.var.dbs.directory, c.get("user").id, cursor, limit);
  const page = keysetPage(rows, limit, (row) => row.id);
  return ok(c, { ...page, items: page.items.map((row) => orgView(row, row.role)) });
}

export async function getOne(c: OrgRouteContext<R.GetOneRoute>) {
  const { orgId } = c.req.valid("param");
  const org = await queries.findOrg(c.var.dbs.directory, orgId);
  if (!org) throw teamGone();
  return ok(c, orgView(org, c.get("orgRole")));
}

export async function rename(c: OrgRouteContext<R.RenameRoute>) {
  const { orgId } = c.req.valid("param");
  const { name } = c.req.valid("json");
  const org = await queries.renameOrg(c.var.dbs.directory, orgId, name, auditActorOf(c));
  if (!org) throw teamGone();
  return ok(c, orgView(org, c.get("orgRole")));
}

export async function remove(c: OrgRouteContext<R.RemoveRoute>) {
  const { orgId } = c.req.valid("param");
  const db = c.var.dbs.directory;
  // Its workspace's rows first, then the directory's: a delete that stops between is finished by its retry.
  const workspaceDb = await c.var.dbs.of(orgOwner(orgId));
  const workspace = await eraseWorkspaceRows(workspaceDb, orgOwner(orgId));
  // Its objects are queued before their rows go (in its shard, then in the directory's batch for its own
  // tables), so none is forgotten if this request stops.
  const erasureId = crypto.randomUUID();
  const storage = await eraseWorkspaceStorage(workspaceDb, orgOwner(orgId), erasureId);
  await queueTeamFeeds(workspaceDb, [orgId], erasureId);
  const deleted = await queries.deleteOrg(db, orgId, queueOrgObjects(db, orgId, erasureId));
  if (!deleted) throw teamGone();
  deleted.erased.todos += workspace.todos;
  deleted.erased.auditEntries += workspace.auditEntries;
  deleted.erased.files += storage.files;
  forgetMembership(orgId, ...deleted.memberIds);
  await forgetTeamRoles(c.var.dbs, orgId);
  const logger = c.get("logger");
  // The feed's wipe tells its listeners (team.left); a failed one stays queued for the cron.
  const [outcomes, feed] = await Promise.all([
    Promise.all(
      [...new Set([db, workspaceDb])].map((each) =>
        eraseNowIfSmall(c.env.R2_BUCKET, each, erasureId, logger),
      ),
    ),
    wipeNowIfFew(c.env, workspaceDb, erasureId, logger),
  ]);
  const objects = {
    objects: outcomes.reduce((sum, outcome) => sum + outcome.objects, 0),
    pending: outcomes.some((outcome) => outcome.pending),
  };
  const erased = { ...deleted.erased, filesPending: objects.pending };
  logger.info("org_deleted", {
    orgId,
    by: c.get("user").id,
    ...erased,
    objects: objects.objects,
    feedPending: feed.pending,
  });
  return ok(c, { id: orgId, erased });
}

export async function offerTransfer(c: OrgRouteContext<R.OfferTransferRoute>) {
  const { orgId } = c.req.valid("param");
  const { userId } = c.req.valid("json");
  const db = c.var.dbs.directory;
  if (userId === c.get("user").id) throw new OrgConflict("You own the team already");
  if (!(await memberRole(db, orgId, userId))) throw new ApiError(404, "Member not found");
  const expiresAt = new Date(Date.now() + TRANSFER_TTL_MS).toISOString();
  const org = await queries.offerTransfer(db, orgId, userId, expiresAt, auditActorOf(c));
  if (!org) throw teamGone();
  return ok(c, orgView(org, "owner"));
}

export async function acceptTransfer(c: OrgRouteContext<R.AcceptTransferRoute>) {
  const { orgId } = c.req.valid("param");
  const user = c.get("user");
  const db = c.var.dbs.directory;
  const { moved, previousOwner } = await queries.acceptTransfer(
    db,
    orgId,
    user.id,
    new Date().toISOString(),
    auditActorOf(c),
  );
  if (!moved)
    throw new OrgConflict(
      "No standing ownership offer to you: it expired, was withdrawn or named someone else",
    );
  const changed = [user.id, ...(previousOwner === null ? [] : [previousOwner])];
  forgetMembership(orgId, ...changed);
  // Both roles changed; for a team's data an owner and an admin may do the same, so blanking after suffices.
  await blankTeamRoles(c.var.dbs, orgId, changed);
  const org = await queries.findOrg(db, orgId);
  if (!org) throw teamGone();
  c.get("logger").info("org_transferred", { orgId, from: previousOwner, to: user.id });
  return ok(c, orgView(org, "owner"));
}

export async function cancelTransfer(c: OrgRouteContext<R.CancelTransferRoute>) {
  const { orgId } = c.req.valid("param");
  const db = c.var.dbs.directory;
  if (!(await queries.cancelTransfer(db, orgId, auditActorOf(c)))) {
    throw new OrgConflict("No ownership offer to withdraw");
  }
  const org = await queries.findOrg(db, orgId);
  if (!org) throw teamGone();
  return ok(c, orgView(org, c.get("orgRole")));
}
