import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { auditActorOf } from "../../http/audit-actor";
import { queueTeamFeeds, wipeNowIfFew } from "../../chats/agent-wipes";
import { eraseNowIfSmall, queueOrgObjects } from "../../files/erasure";
import type { AuthedRouteContext } from "../../http/types";
import { joinTeamFeed } from "../../todos/team-feeds";
import { forgetMembership, memberRole } from "../../orgs/membership";
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
  const db = c.get("db");
  const limit = orgLimits(c.env).teamsPerUser;
  if ((await queries.countMemberships(db, user.id)) >= limit) {
    throw new OrgConflict(`An account belongs to at most ${limit} teams: leave or delete one first`);
  }
  const org = await queries.insertOrg(db, name, auditActorOf(c));
  c.get("logger").info("org_created", { orgId: org.id, userId: user.id });
  c.executionCtx.waitUntil(joinTeamFeed(c.env, c.get("logger"), org.id, user.id));
  return created(c, orgView(org, "owner"));
}

export async function list(c: AuthedRouteContext<R.ListRoute>) {
  const { cursor, limit } = c.req.valid("query");
  const rows = await queries.listOrgsOf(c.get("db"), c.get("user").id, cursor, limit);
  const page = keysetPage(rows, limit, (row) => row.id);
  return ok(c, { ...page, items: page.items.map((row) => orgView(row, row.role)) });
}

export async function getOne(c: OrgRouteContext<R.GetOneRoute>) {
  const { orgId } = c.req.valid("param");
  const org = await queries.findOrg(c.get("db"), orgId);
  if (!org) throw teamGone();
  return ok(c, orgView(org, c.get("orgRole")));
}

export async function rename(c: OrgRouteContext<R.RenameRoute>) {
  const { orgId } = c.req.valid("param");
  const { name } = c.req.valid("json");
  const org = await queries.renameOrg(c.get("db"), orgId, name, auditActorOf(c));
  if (!org) throw teamGone();
  return ok(c, orgView(org, c.get("orgRole")));
}

export async function remove(c: OrgRouteContext<R.RemoveRoute>) {
  const { orgId } = c.req.valid("param");
  const db = c.get("db");
  // Its objects and its feed are queued in the delete's own batch, so none is forgotten if this request stops.
  const erasureId = crypto.randomUUID();
  const queued = [...queueOrgObjects(db, orgId, erasureId), queueTeamFeeds(db, orgId, erasureId)];
  const deleted = await queries.deleteOrg(db, orgId, queued);
  if (!deleted) throw teamGone();
  forgetMembership(orgId, ...deleted.memberIds);
  const logger = c.get("logger");
  // The feed's wipe tells its listeners (team.left); a failed one stays queued for the cron.
  const [objects, feed] = await Promise.all([
    eraseNowIfSmall(c.env.R2_BUCKET, db, erasureId, logger),
    wipeNowIfFew(c.env, db, erasureId, logger),
  ]);
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
  const db = c.get("db");
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
  const db = c.get("db");
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
  forgetMembership(orgId, user.id, ...(previousOwner === null ? [] : [previousOwner]));
  const org = await queries.findOrg(db, orgId);
  if (!org) throw teamGone();
  c.get("logger").info("org_transferred", { orgId, from: previousOwner, to: user.id });
  return ok(c, orgView(org, "owner"));
}

export async function cancelTransfer(c: OrgRouteContext<R.CancelTransferRoute>) {
  const { orgId } = c.req.valid("param");
  const db = c.get("db");
  if (!(await queries.cancelTransfer(db, orgId, auditActorOf(c)))) {
    throw new OrgConflict("No ownership offer to withdraw");
  }
  const org = await queries.findOrg(db, orgId);
  if (!org) throw teamGone();
  return ok(c, orgView(org, c.get("orgRole")));
}
