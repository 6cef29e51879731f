import { and, eq } from "drizzle-orm";
import { cachedLookup, forgetLookup, rememberLookup } from "../auth/auth-user-cache";
import type { Db } from "../db/client";
import { orgMembersTable, type OrgRole } from "../db/orgs-schema";

/** What a non-member is told of a team, whether it exists or not: REST's 404, a tool's error. */
export const TEAM_NOT_FOUND = "Team not found";

const cacheKey = (orgId: number, userId: number) => `org:${orgId}:${userId}`;

/**
 * The user's role in the team, or null: read on every request of a team (one primary-key read),
 * remembered for a moment like the user row (src/auth/auth-user-cache.ts). A change in this isolate
 * forgets it at once (forgetMembership), other isolates see it within AUTH_USER_TTL_MS. Non-members
 * are not remembered, so an accepted invitation works on the next request.
 */
export async function memberRole(db: Db, orgId: number, userId: number): Promise<OrgRole | null> {
  const key = cacheKey(orgId, userId);
  const known = cachedLookup<OrgRole>(key);
  if (known) return known;
  const role = await readMemberRole(db, orgId, userId);
  return role ? rememberLookup(key, userId, role) : null;
}

/** The user's role in the team as the directory has it now (never remembered), or null. */
export async function readMemberRole(directory: Db, orgId: number, userId: number): Promise<OrgRole | null> {
  const [row] = await directory
    .select({ role: orgMembersTable.role })
    .from(orgMembersTable)
    .where(and(eq(orgMembersTable.orgId, orgId), eq(orgMembersTable.userId, userId)));
  return row?.role ?? null;
}

export function forgetMembership(orgId: number, ...userIds: number[]): void {
  for (const userId of userIds) forgetLookup(cacheKey(orgId, userId));
}
