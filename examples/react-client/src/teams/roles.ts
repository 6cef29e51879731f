import type { components } from "../api/schema";

export type Org = components["schemas"]["Org"];
export type OrgRole = components["schemas"]["OrgRole"];
export type OrgMember = components["schemas"]["OrgMember"];
export type GrantableRole = components["schemas"]["OrgGrantableRole"];

/** The Teams screen; `?team=<id>` opens one team. */
export const TEAMS_PATH = "account/teams";

/** What the service lets each role do (docs/teams.md, Roles): the screen offers only what will work. */
export const canManage = (role: OrgRole) => role === "owner" || role === "admin";

/** The roles `actor` may give `member`, or none if they may not change it. */
export function grantableRoles(actor: OrgRole, member: OrgMember, selfId: number): GrantableRole[] {
  if (member.userId === selfId || member.role === "owner") return [];
  if (actor === "owner") return ["admin", "member", "viewer"];
  if (actor === "admin" && member.role !== "admin") return ["member", "viewer"];
  return [];
}

/** Whether `actor` may remove `member` (leaving is separate). */
export function canRemove(actor: OrgRole, member: OrgMember, selfId: number): boolean {
  if (member.userId === selfId || member.role === "owner") return false;
  return actor === "owner" || (actor === "admin" && member.role !== "admin");
}

export const ROLE_LABELS: Record<OrgRole, string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
  viewer: "Viewer",
};
