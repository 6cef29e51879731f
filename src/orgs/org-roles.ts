import type { OrgRole } from "../db/orgs-schema";

/**
 * What can be done to a team, as statements (better-auth's access control is the model). Each route
 * of a team names the one action it needs (src/routes/orgs/org-access.ts); the gate, the document
 * (`x-org-action`) and the role-by-route tests read this table and nothing else.
 */
export const ORG_ACTIONS = [
  "org:read",
  "org:rename",
  "org:delete",
  "org:transfer",
  "members:read",
  // Change members and viewers (between the two) and remove them.
  "members:manage",
  // Grant admin, take it away, remove an admin.
  "admins:manage",
  "invitations:read",
  "invitations:create",
  "invitations:revoke",
  "audit:read",
  "data:read",
  "data:write",
] as const;
export type OrgAction = (typeof ORG_ACTIONS)[number];

const VIEWER: readonly OrgAction[] = ["org:read", "members:read", "data:read"];
const MEMBER: readonly OrgAction[] = [...VIEWER, "data:write"];
const ADMIN: readonly OrgAction[] = [
  ...MEMBER,
  "org:rename",
  "members:manage",
  "invitations:read",
  "invitations:create",
  "invitations:revoke",
  "audit:read",
];
const OWNER: readonly OrgAction[] = [...ADMIN, "admins:manage", "org:delete", "org:transfer"];

/** Each role and everything it may do. */
export const ORG_PERMISSIONS: Readonly<Record<OrgRole, readonly OrgAction[]>> = {
  owner: OWNER,
  admin: ADMIN,
  member: MEMBER,
  viewer: VIEWER,
};

export function can(role: OrgRole, action: OrgAction): boolean {
  return ORG_PERMISSIONS[role].includes(action);
}

/**
 * The action that changing a member from `from` to `to` takes (`to` null: removing them): anything
 * that touches admin is the owner's; between member and viewer, an admin's too. The owner's own
 * membership changes only by transfer (null).
 */
export function roleChangeAction(from: OrgRole, to: OrgRole | null): OrgAction | null {
  if (from === "owner" || to === "owner") return null;
  return from === "admin" || to === "admin" ? "admins:manage" : "members:manage";
}
