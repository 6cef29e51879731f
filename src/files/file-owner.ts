import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { orgStorageQuotaBytes, storageQuotaBytes } from "../core/config";
import { orgOwner, userOwner, type Owner } from "../core/owner";
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
 * The rows `userId` may read: their own, and those of every team where their role reads (membership
 * checked in the same statement, so a member removed a moment ago reads nothing of the team).
 */
export function readableBy(table: { userId: SQLiteColumn; orgId: SQLiteColumn }, userId: number): SQL {
  const m = orgMembersTable;
  return or(
    ownedBy(table, userOwner(userId)),
    sql`${table.orgId} IN (SELECT ${m.orgId} FROM ${m} WHERE ${m.userId} = ${userId} AND ${m.role} IN ${READERS})`,
  )!;
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
