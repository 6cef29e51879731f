import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { orgStorageQuotaBytes, storageQuotaBytes } from "../core/config";
import { orgOwner, userOwner, type Owner } from "../core/owner";
import type { Db } from "../db/client";
import { orgMembersTable, ORG_ROLES } from "../db/orgs-schema";
import { can } from "../orgs/org-roles";

/**
 * Whose a file, reservation, upload or deleted file is: its team's when its row names one, else its
 * user's (for a team's row, `userId` is the member who uploaded it).
 */
export function ownerOfRow(row: { userId: number; orgId: number | null }): Owner {
  return row.orgId === null ? userOwner(row.userId) : orgOwner(row.orgId);
}

/** The rows of `owner` in a table with `userId` and `orgId`: a user's own never include a team's. */
export function ownedBy(table: { userId: SQLiteColumn; orgId: SQLiteColumn }, owner: Owner): SQL {
  return owner.kind === "user"
    ? and(eq(table.userId, owner.userId), isNull(table.orgId))!
    : eq(table.orgId, owner.orgId);
}

const READERS = ORG_ROLES.filter((role) => can(role, "data:read"));

/**
 * Whose files `userId` may read: their own, and every team's where their role reads (read from the
 * directory now, so a member removed a moment ago reads nothing of the team).
 */
export async function readableOwners(directory: Db, userId: number): Promise<Owner[]> {
  const m = orgMembersTable;
  const teams = await directory
    .select({ orgId: m.orgId })
    .from(m)
    .where(and(eq(m.userId, userId), inArray(m.role, READERS)));
  return [userOwner(userId), ...teams.map((team) => orgOwner(team.orgId))];
}

/** ownedBy() as raw SQL, for statements written by hand. */
export function ownedBySql(table: { userId: SQLiteColumn; orgId: SQLiteColumn }, owner: Owner): SQL {
  return owner.kind === "user"
    ? sql`${table.userId} = ${owner.userId} AND ${table.orgId} IS NULL`
    : sql`${table.orgId} = ${owner.orgId}`;
}

/** The storage quota of `owner`: STORAGE_QUOTA_BYTES for a user, ORG_STORAGE_QUOTA_BYTES for a team. */
export function quotaOf(env: Env, owner: Owner): number {
  return owner.kind === "user" ? storageQuotaBytes(env) : orgStorageQuotaBytes(env);
}
