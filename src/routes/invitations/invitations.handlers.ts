import { findUserById } from "../../auth/users.queries";
import { auditActorOf } from "../../http/audit-actor";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedRouteContext } from "../../http/types";
import { acceptByToken, InvitationRefused } from "../../orgs/invitation-accept";
import { createInvitation, statusOf } from "../../orgs/invitations";
import * as queries from "../../orgs/invitations.queries";
import type { InvitationRow } from "../../orgs/invitations.queries";
import { findOrg } from "../../orgs/orgs.queries";
import { can } from "../../orgs/org-roles";
import { OrgConflict } from "../../orgs/org-failures";
import { orgLimits } from "../../orgs/org-settings";
import { TEAM_NOT_FOUND, type OrgRouteContext } from "../orgs/org-access";
import { keysetPage, orgView } from "../orgs/org-views";
import type * as R from "./invitations.routes";
import { joinTeamFeed } from "../../todos/team-feeds";

const invitationGone = () => new ApiError(404, "Invitation not found");

/** An invitation as answered: no token hash, no inviter id, the status as of now. */
function invitationView(row: InvitationRow, now = new Date().toISOString()) {
  const { tokenHash: _hash, invitedBy: _by, acceptedBy: _accepted, ...rest } = row;
  return { ...rest, status: statusOf(row, now) };
}

export async function create(c: OrgRouteContext<R.CreateRoute>) {
  const { orgId } = c.req.valid("param");
  const { email, role } = c.req.valid("json");
  const orgRole = c.get("orgRole");
  if (role === "admin" && !can(orgRole, "admins:manage")) {
    throw new ApiError(403, `Your role (${orgRole}) may not do this (admins:manage)`);
  }
  const db = c.var.dbs.directory;
  const org = await findOrg(db, orgId);
  if (!org) throw new ApiError(404, TEAM_NOT_FOUND);
  const user = c.get("user");
  const invitedBy = { id: user.id, username: user.username };
  const input = { org, email, role, invitedBy, origin: new URL(c.req.url).origin };
  const { invitation, mail } = await createInvitation(c.env, db, input, auditActorOf(c), c.get("logger"));
  c.executionCtx.waitUntil(mail);
  return created(c, invitationView(invitation));
}

export async function list(c: OrgRouteContext<R.ListRoute>) {
  const { orgId } = c.req.valid("param");
  const { cursor, limit } = c.req.valid("query");
  const rows = await queries.listOrgInvitations(c.var.dbs.directory, orgId, cursor, limit);
  const page = keysetPage(rows, limit, (row) => row.id);
  return ok(c, { ...page, items: page.items.map((row) => invitationView(row)) });
}

export async function revoke(c: OrgRouteContext<R.RevokeRoute>) {
  const { orgId, id } = c.req.valid("param");
  const db = c.var.dbs.directory;
  const invitation = await queries.findInvitation(db, orgId, id);
  if (!invitation) throw invitationGone();
  const now = new Date().toISOString();
  if (!(await queries.closeInvitation(db, invitation, "revoked", now, auditActorOf(c)))) {
    throw new OrgConflict(`This invitation is ${statusOf(invitation, now)}, not pending`);
  }
  return ok(c, invitationView({ ...invitation, status: "revoked", respondedAt: now }, now));
}

/** The caller's address when it is verified: what the invitations to it are listed and declined by. */
async function verifiedEmail(
  c: AuthedRouteContext<R.ListMineRoute | R.DeclineRoute>,
): Promise<string | null> {
  const user = await findUserById(c.var.dbs.directory, c.get("user").id);
  return user?.emailVerifiedAt ? user.email.toLowerCase() : null;
}

export async function listMine(c: AuthedRouteContext<R.ListMineRoute>) {
  const email = await verifiedEmail(c);
  const items = email
    ? await queries.listInvitationsTo(c.var.dbs.directory, email, new Date().toISOString())
    : [];
  return ok(c, { items, nextCursor: null });
}

export async function accept(c: AuthedRouteContext<R.AcceptRoute>) {
  const { token } = c.req.valid("json");
  const db = c.var.dbs.directory;
  const user = await findUserById(db, c.get("user").id);
  if (!user) throw invitationGone();
  try {
    const { org, role } = await acceptByToken(db, token, user, orgLimits(c.env), auditActorOf(c));
    c.get("logger").info("org_invitation_accepted", { orgId: org.id, userId: user.id });
    c.executionCtx.waitUntil(joinTeamFeed(c.env, c.get("logger"), org.id, user.id));
    return ok(c, orgView(org, role));
  } catch (err) {
    if (err instanceof InvitationRefused)
      throw new ApiError(err.reason === "unknown" ? 404 : 403, err.message);
    throw err;
  }
}

export async function decline(c: AuthedRouteContext<R.DeclineRoute>) {
  const { id } = c.req.valid("param");
  const email = await verifiedEmail(c);
  const db = c.var.dbs.directory;
  const now = new Date().toISOString();
  const invitation = email ? await queries.findPendingInvitationTo(db, id, email, now) : null;
  if (!invitation || !(await queries.closeInvitation(db, invitation, "declined", now, auditActorOf(c)))) {
    throw invitationGone();
  }
  return ok(c, invitationView({ ...invitation, status: "declined", respondedAt: now }, now));
}
