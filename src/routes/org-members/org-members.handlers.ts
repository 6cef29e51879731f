import { endSocketsOf } from "../../agents/end-sockets";
import { auditActorOf } from "../../http/audit-actor";
import { ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { removeMember, setMemberRole } from "../../orgs/members.queries";
import { forgetMembership, memberRole } from "../../orgs/membership";
import { OrgConflict } from "../../orgs/org-failures";
import { can, roleChangeAction } from "../../orgs/org-roles";
import { listMembers } from "../../orgs/orgs.queries";
import type { OrgRole } from "../../db/orgs-schema";
import { withRolesBlanked } from "../../orgs/team-role-copies";
import { dropFromTeamFeed } from "../../todos/team-feeds";
import type { OrgRouteContext } from "../orgs/org-access";
import { keysetPage } from "../orgs/org-views";
import type { ListRoute, RemoveRoute, SetRoleRoute } from "./org-members.routes";

const memberGone = () => new ApiError(404, "Member not found");
const OWNER_FIXED = "The owner stays owner until they transfer ownership and it is accepted";

/** 403 unless the caller's role may change `from` into `to` (null: removal), by the one table of roles. */
function requireRoleChange(actorRole: OrgRole, from: OrgRole, to: OrgRole | null): void {
  const action = roleChangeAction(from, to);
  if (action === null) throw new OrgConflict(OWNER_FIXED);
  if (!can(actorRole, action))
    throw new ApiError(403, `Your role (${actorRole}) may not do this (${action})`);
}

export async function list(c: OrgRouteContext<ListRoute>) {
  const { orgId } = c.req.valid("param");
  const { cursor, limit } = c.req.valid("query");
  const rows = await listMembers(c.var.dbs.directory, orgId, cursor, limit);
  return ok(
    c,
    keysetPage(rows, limit, (row) => row.userId),
  );
}

export async function setRole(c: OrgRouteContext<SetRoleRoute>) {
  const { orgId, userId } = c.req.valid("param");
  const { role } = c.req.valid("json");
  const db = c.var.dbs.directory;
  const from = await memberRole(db, orgId, userId);
  if (!from) throw memberGone();
  requireRoleChange(c.get("orgRole"), from, role);
  const changed =
    from === role ||
    (await withRolesBlanked(c.var.dbs, orgId, [userId], () =>
      setMemberRole(db, orgId, userId, { from, to: role }, auditActorOf(c)),
    ));
  if (!changed) throw new OrgConflict("The member's role changed meanwhile: read it again");
  forgetMembership(orgId, userId);
  // Keyset after userId - 1: this member, if still there.
  const [member] = await listMembers(db, orgId, userId - 1, 1);
  if (member?.userId !== userId) throw memberGone();
  return ok(c, member);
}

export async function remove(c: OrgRouteContext<RemoveRoute>) {
  const { orgId, userId } = c.req.valid("param");
  const db = c.var.dbs.directory;
  const self = userId === c.get("user").id;
  const role = self ? c.get("orgRole") : await memberRole(db, orgId, userId);
  if (!role) throw memberGone();
  if (self && role === "owner") throw new OrgConflict(`The owner cannot leave: ${OWNER_FIXED.toLowerCase()}`);
  if (!self) requireRoleChange(c.get("orgRole"), role, null);
  const removed = await withRolesBlanked(c.var.dbs, orgId, [userId], () =>
    removeMember(db, orgId, userId, role, auditActorOf(c)),
  );
  if (!removed) throw memberGone();
  forgetMembership(orgId, userId);
  // Their live feed stops carrying the team before this answers; their sockets re-check their credentials.
  await dropFromTeamFeed(c.env, c.get("logger"), orgId, userId);
  endSocketsOf(c, userId);
  c.get("logger").info("org_member_removed", { orgId, userId, by: c.get("user").id });
  return ok(c, { userId, left: self });
}
