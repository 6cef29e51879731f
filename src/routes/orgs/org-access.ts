import { createRoute, type RouteConfig, type RouteHandler } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import type { OrgRole } from "../../db/orgs-schema";
import type { Db } from "../../db/client";
import { ApiError } from "../../http/errors";
import type { AuthedEnv } from "../../http/types";
import { memberRole, TEAM_NOT_FOUND } from "../../orgs/membership";
import { ORG_PERMISSIONS, can, type OrgAction } from "../../orgs/org-roles";

/** Routes of one team: the caller's role in it is set by the gate. */
export interface OrgEnv extends AuthedEnv {
  Variables: AuthedEnv["Variables"] & { orgRole: OrgRole };
}

export { TEAM_NOT_FOUND } from "../../orgs/membership";
const ORG_ID = /^[1-9][0-9]{0,15}$/;

/**
 * The user's role in the team, when it may do `action`: a non-member gets `notFound()` (by default
 * 404 Team not found; a team's file answers as a file that does not exist), a role that may not 403.
 */
export async function requireOrgAction(
  db: Db,
  orgId: number,
  userId: number,
  action: OrgAction,
  notFound = () => new ApiError(404, TEAM_NOT_FOUND),
): Promise<OrgRole> {
  const role = await memberRole(db, orgId, userId);
  if (!role) throw notFound();
  if (!can(role, action)) throw new ApiError(403, `Your role (${role}) may not do this (${action})`);
  return role;
}

/**
 * The gate of a team's routes: the caller's membership, read on every request; a non-member gets 404
 * for everything of the team (as for a team that does not exist), a member whose role lacks `action`
 * 403. A malformed id passes on to the route's own validation (400).
 */
export function orgAccess(action: OrgAction) {
  return createMiddleware<OrgEnv>(async (c, next) => {
    const raw = c.req.param("orgId");
    if (!raw || !ORG_ID.test(raw)) return next();
    c.set("orgRole", await requireOrgAction(c.var.dbs.directory, Number(raw), c.get("user").id, action));
    await next();
  });
}

const rolesThatCan = (action: OrgAction) =>
  (Object.keys(ORG_PERMISSIONS) as OrgRole[]).filter((role) => can(role, action));

/**
 * createRoute() for a route of one team: its gate, and its action in the document (`x-org-action`,
 * and in words) from the one table of roles (src/orgs/org-roles.ts). Needs a sign-in.
 */
export function orgRoute<R extends Omit<RouteConfig, "middleware">>(action: OrgAction, route: R) {
  return createRoute({
    ...route,
    description:
      `${route.description ?? ""} Roles: ${rolesThatCan(action).join(", ")} (\`${action}\`); other ` +
      "members 403, anyone else 404. Needs a sign-in.",
    "x-org-action": action,
    middleware: [orgAccess(action)] as const,
  });
}

/** What a handler of team route R is given. */
export type OrgRouteContext<R extends RouteConfig> = Parameters<RouteHandler<R, OrgEnv>>[0];
