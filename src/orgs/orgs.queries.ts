import { and, asc, count, eq, gt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import type { ShardName } from "../db/shard-names";
import { insertWorkspace } from "../db/workspaces.queries";
import { filesTable } from "../db/files-schema";
import { auditLogTable } from "../db/audit-schema";
import { orgInvitationsTable, orgMembersTable, orgsTable } from "../db/orgs-schema";
import { todosTable, usersTable } from "../db/schema";
import { deletedFilesTable, deletedTodosTable } from "../db/trash-schema";
import { auditInsert, auditInsertWhen, type AuditActor } from "./audit.queries";

export type OrgRow = typeof orgsTable.$inferSelect;

export async function countMemberships(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(orgMembersTable)
    .where(eq(orgMembersTable.userId, userId));
  return row?.n ?? 0;
}

/** The team, its owner (the creator), its workspace (on the emptiest of `shards`) and the first audit entry, in one batch. */
export async function insertOrg(
  db: Db,
  name: string,
  actor: AuditActor & { actorId: number },
  shards: readonly ShardName[],
): Promise<OrgRow> {
  // D1 runs a batch as one transaction, so the newest id is the one just inserted.
  const newest = sql`(SELECT max(${orgsTable.id}) FROM ${orgsTable})`;
  const [inserted] = await db.batch([
    db.insert(orgsTable).values({ name }).returning(),
    db
      .insert(orgMembersTable)
      .select(sql`SELECT ${newest}, ${actor.actorId}, 'owner', ${new Date().toISOString()}`),
    insertWorkspace(db, { orgIdSql: newest }, shards),
    db.insert(auditLogTable).select(
      sql`SELECT NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ${newest}, NULL, ${actor.actorId}, ${actor.door},
          ${actor.credential}, ${actor.ip}, ${actor.requestId}, 'org.created', NULL, ${JSON.stringify({ name })}`,
    ),
  ]);
  return inserted[0]!;
}

export async function findOrg(db: Db, orgId: number): Promise<OrgRow | null> {
  const [row] = await db.select().from(orgsTable).where(eq(orgsTable.id, orgId));
  return row ?? null;
}

/** The user's teams with their role, by id, after `afterId`. */
export function listOrgsOf(db: Db, userId: number, afterId: number | undefined, limit: number) {
  return db
    .select({
      id: orgsTable.id,
      name: orgsTable.name,
      role: orgMembersTable.role,
      createdAt: orgsTable.createdAt,
      updatedAt: orgsTable.updatedAt,
      transferTo: orgsTable.transferTo,
      transferExpiresAt: orgsTable.transferExpiresAt,
    })
    .from(orgMembersTable)
    .innerJoin(orgsTable, eq(orgsTable.id, orgMembersTable.orgId))
    .where(
      and(eq(orgMembersTable.userId, userId), afterId === undefined ? undefined : gt(orgsTable.id, afterId)),
    )
    .orderBy(asc(orgsTable.id))
    .limit(limit + 1);
}

export async function renameOrg(
  db: Db,
  orgId: number,
  name: string,
  actor: AuditActor,
): Promise<OrgRow | null> {
  const [rows] = await db.batch([
    db
      .update(orgsTable)
      .set({ name, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))` })
      .where(eq(orgsTable.id, orgId))
      .returning(),
    auditInsert(db, { orgId }, actor, { action: "org.renamed", target: `org-${orgId}`, detail: { name } }),
  ]);
  return rows[0] ?? null;
}

export interface OrgErasure {
  members: number;
  invitations: number;
  auditEntries: number;
  files: number;
  todos: number;
}

/**
 * Deletes the team and, by cascade, everything it owns (its todos with their attachment rows, trash,
 * change log, counts and sync floors included), after `before` (the statements that queue its objects
 * for erasure); answers what went (null: no such team).
 */
export async function deleteOrg(
  db: Db,
  orgId: number,
  before: BatchItem<"sqlite">[] = [],
): Promise<{ erased: OrgErasure; memberIds: number[] } | null> {
  const files = sql<number>`(SELECT count(*) FROM ${filesTable} WHERE ${filesTable.orgId} = ${orgId})
    + (SELECT count(*) FROM ${deletedFilesTable} WHERE ${deletedFilesTable.orgId} = ${orgId})`;
  const todos = sql<number>`(SELECT count(*) FROM ${todosTable} WHERE ${todosTable.orgId} = ${orgId})
    + (SELECT count(*) FROM ${deletedTodosTable} WHERE ${deletedTodosTable.orgId} = ${orgId})`;
  const [members, invitations, audit, fileCount, todoCount, ...rest] = await db.batch([
    db
      .select({ userId: orgMembersTable.userId })
      .from(orgMembersTable)
      .where(eq(orgMembersTable.orgId, orgId)),
    db.select({ n: count() }).from(orgInvitationsTable).where(eq(orgInvitationsTable.orgId, orgId)),
    db.select({ n: count() }).from(auditLogTable).where(eq(auditLogTable.orgId, orgId)),
    db.select({ n: files }).from(orgsTable).where(eq(orgsTable.id, orgId)),
    db.select({ n: todos }).from(orgsTable).where(eq(orgsTable.id, orgId)),
    ...before,
    db.delete(orgsTable).where(eq(orgsTable.id, orgId)).returning({ id: orgsTable.id }),
  ]);
  const gone = rest.at(-1) as { id: number }[];
  if (gone.length === 0) return null;
  const erased = {
    members: members.length,
    invitations: invitations[0]?.n ?? 0,
    auditEntries: audit[0]?.n ?? 0,
    files: fileCount[0]?.n ?? 0,
    todos: todoCount[0]?.n ?? 0,
  };
  return { erased, memberIds: members.map((m) => m.userId) };
}

/** Teams the user owns: with other members (blocking an account's delete) or alone. */
export async function ownedOrgs(db: Db, userId: number) {
  const others = sql<number>`(SELECT count(*) FROM ${orgMembersTable} m WHERE m."orgId" = ${orgsTable.id}) - 1`;
  return db
    .select({ id: orgsTable.id, name: orgsTable.name, otherMembers: others })
    .from(orgMembersTable)
    .innerJoin(orgsTable, eq(orgsTable.id, orgMembersTable.orgId))
    .where(and(eq(orgMembersTable.userId, userId), eq(orgMembersTable.role, "owner")));
}

/** A subquery of the teams whose only member is `userId`, their owner. */
export function soleOwnedOrgIds(userId: number) {
  return sql`(SELECT m."orgId" FROM ${orgMembersTable} m WHERE m."userId" = ${userId} AND m."role" = 'owner'
    AND NOT EXISTS (SELECT 1 FROM ${orgMembersTable} o WHERE o."orgId" = m."orgId" AND o."userId" <> ${userId}))`;
}

/** Deletes the teams whose only member is `userId`, their owner: run in the batch that deletes the account. */
export function deleteSoleOwnedOrgs(db: Db, userId: number) {
  return db.delete(orgsTable).where(sql`${orgsTable.id} IN ${soleOwnedOrgIds(userId)}`);
}

/** The ownership offer: to `userId` until `expiresAt`. */
export async function offerTransfer(
  db: Db,
  orgId: number,
  userId: number,
  expiresAt: string,
  actor: AuditActor,
) {
  const [rows] = await db.batch([
    db
      .update(orgsTable)
      .set({ transferTo: userId, transferExpiresAt: expiresAt })
      .where(eq(orgsTable.id, orgId))
      .returning(),
    auditInsert(db, { orgId }, actor, { action: "org.transfer_offered", target: `user-${userId}` }),
  ]);
  return rows[0] ?? null;
}

export async function cancelTransfer(db: Db, orgId: number, actor: AuditActor): Promise<boolean> {
  const [rows] = await db.batch([
    db
      .update(orgsTable)
      .set({ transferTo: null, transferExpiresAt: null })
      .where(and(eq(orgsTable.id, orgId), sql`${orgsTable.transferTo} IS NOT NULL`))
      .returning({ id: orgsTable.id }),
    auditInsertWhen(db, { orgId }, actor, { action: "org.transfer_cancelled" }, sql`changes() > 0`),
  ]);
  return rows.length > 0;
}

/**
 * Ownership moves in one batch, only while `userId`'s offer stands and they are a member: the owner
 * becomes admin, then they become owner (the one-owner index holds at every statement), the offer goes.
 */
export async function acceptTransfer(db: Db, orgId: number, userId: number, now: string, actor: AuditActor) {
  const offerStands = sql`EXISTS (SELECT 1 FROM ${orgsTable} o WHERE o."id" = ${orgId} AND o."transferTo" = ${userId}
    AND o."transferExpiresAt" > ${now})
    AND EXISTS (SELECT 1 FROM ${orgMembersTable} m WHERE m."orgId" = ${orgId} AND m."userId" = ${userId} AND m."role" <> 'owner')`;
  const members = orgMembersTable;
  const results = await db.batch([
    db
      .select({ userId: members.userId })
      .from(members)
      .where(and(eq(members.orgId, orgId), eq(members.role, "owner"))),
    db
      .update(members)
      .set({ role: "admin" })
      .where(and(eq(members.orgId, orgId), eq(members.role, "owner"), offerStands)),
    db
      .update(members)
      .set({ role: "owner" })
      .where(and(eq(members.orgId, orgId), eq(members.userId, userId), sql`changes() > 0`))
      .returning({ userId: members.userId }),
    auditInsertWhen(
      db,
      { orgId },
      actor,
      { action: "org.transfer_accepted", target: `user-${userId}` },
      sql`changes() > 0`,
    ),
    db
      .update(orgsTable)
      .set({ transferTo: null, transferExpiresAt: null })
      .where(
        and(
          eq(orgsTable.id, orgId),
          sql`EXISTS (SELECT 1 FROM ${members} m WHERE m."orgId" = ${orgId} AND m."userId" = ${userId} AND m."role" = 'owner')`,
        ),
      ),
  ]);
  const moved = (results[2] as unknown[]).length > 0;
  const previousOwner = (results[0] as { userId: number }[])[0]?.userId ?? null;
  return { moved, previousOwner };
}

/** The team's members with their names, by user id after `afterUserId`. */
export function listMembers(db: Db, orgId: number, afterUserId: number | undefined, limit: number) {
  return db
    .select({
      userId: orgMembersTable.userId,
      username: usersTable.username,
      name: usersTable.name,
      role: orgMembersTable.role,
      joinedAt: orgMembersTable.joinedAt,
    })
    .from(orgMembersTable)
    .innerJoin(usersTable, eq(usersTable.id, orgMembersTable.userId))
    .where(
      and(
        eq(orgMembersTable.orgId, orgId),
        afterUserId === undefined ? undefined : gt(orgMembersTable.userId, afterUserId),
      ),
    )
    .orderBy(asc(orgMembersTable.userId))
    .limit(limit + 1);
}

export async function countMembers(db: Db, orgId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(orgMembersTable).where(eq(orgMembersTable.orgId, orgId));
  return row?.n ?? 0;
}
