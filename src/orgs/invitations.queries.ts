import { and, asc, count, eq, gt, gte, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { orgInvitationsTable, orgMembersTable, orgsTable, type GrantableRole } from "../db/orgs-schema";
import { usersTable } from "../db/schema";
import { auditInsert, auditInsertWhen, type AuditActor } from "./audit.queries";

const invites = orgInvitationsTable;
export type InvitationRow = typeof invites.$inferSelect;

const pendingAt = (now: string) => and(eq(invites.status, "pending"), gt(invites.expiresAt, now));

export async function countPendingInvites(db: Db, orgId: number, now: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(invites)
    .where(and(eq(invites.orgId, orgId), pendingAt(now)));
  return row?.n ?? 0;
}

export async function countInvitesSince(db: Db, orgId: number, since: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(invites)
    .where(and(eq(invites.orgId, orgId), gte(invites.createdAt, since)));
  return row?.n ?? 0;
}

/** Whether an account with this address is already in the team. */
export async function isMemberByEmail(db: Db, orgId: number, email: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: orgMembersTable.userId })
    .from(orgMembersTable)
    .innerJoin(usersTable, eq(usersTable.id, orgMembersTable.userId))
    .where(and(eq(orgMembersTable.orgId, orgId), eq(usersTable.email, email)));
  return row !== undefined;
}

export interface NewInvitation {
  orgId: number;
  email: string;
  role: GrantableRole;
  tokenHash: string;
  invitedBy: number;
  expiresAt: string;
}

/**
 * Stores the invitation. A pending one to the same address that has expired is marked expired first,
 * in the same batch, so it never blocks this one; one still pending makes the insert fail on the
 * one-pending index (a UNIQUE failure, which the caller answers 409).
 */
export async function insertInvitation(db: Db, invitation: NewInvitation, now: string, actor: AuditActor) {
  const [, rows] = await db.batch([
    db
      .update(invites)
      .set({ status: "expired" })
      .where(
        and(
          eq(invites.orgId, invitation.orgId),
          eq(invites.email, invitation.email),
          eq(invites.status, "pending"),
          lte(invites.expiresAt, now),
        ),
      ),
    db.insert(invites).values(invitation).returning(),
    auditInsert(db, { orgId: invitation.orgId }, actor, {
      action: "invitation.created",
      target: invitation.email,
      detail: { role: invitation.role },
    }),
  ]);
  return rows[0]!;
}

export function listOrgInvitations(db: Db, orgId: number, afterId: number | undefined, limit: number) {
  return db
    .select()
    .from(invites)
    .where(and(eq(invites.orgId, orgId), afterId === undefined ? undefined : gt(invites.id, afterId)))
    .orderBy(asc(invites.id))
    .limit(limit + 1);
}

export async function findInvitation(db: Db, orgId: number, id: number): Promise<InvitationRow | null> {
  const [row] = await db
    .select()
    .from(invites)
    .where(and(eq(invites.id, id), eq(invites.orgId, orgId)));
  return row ?? null;
}

export async function findInvitationByTokenHash(db: Db, tokenHash: string): Promise<InvitationRow | null> {
  const [row] = await db.select().from(invites).where(eq(invites.tokenHash, tokenHash));
  return row ?? null;
}

/** Sets a still-pending invitation's final status (revoked, declined); false when it no longer was pending. */
export async function closeInvitation(
  db: Db,
  invitation: InvitationRow,
  status: "revoked" | "declined",
  now: string,
  actor: AuditActor,
): Promise<boolean> {
  const [rows] = await db.batch([
    db
      .update(invites)
      .set({ status, respondedAt: now })
      .where(and(eq(invites.id, invitation.id), pendingAt(now)))
      .returning({ id: invites.id }),
    auditInsertWhen(
      db,
      { orgId: invitation.orgId },
      actor,
      { action: `invitation.${status}`, target: invitation.email },
      sql`changes() > 0`,
    ),
  ]);
  return rows.length > 0;
}

/**
 * Accepts a pending invitation for `userId`, once: the status changes only from pending, and the
 * membership is inserted only after that change (so concurrent accepts make one membership).
 */
export async function acceptInvitation(
  db: Db,
  invitation: InvitationRow,
  userId: number,
  now: string,
  actor: AuditActor,
): Promise<boolean> {
  const [rows] = await db.batch([
    db
      .update(invites)
      .set({ status: "accepted", acceptedBy: userId, respondedAt: now })
      .where(and(eq(invites.id, invitation.id), pendingAt(now)))
      .returning({ id: invites.id }),
    db
      .insert(orgMembersTable)
      .select(sql`SELECT ${invitation.orgId}, ${userId}, ${invitation.role}, ${now} WHERE changes() > 0`)
      .onConflictDoNothing(),
    auditInsertWhen(
      db,
      { orgId: invitation.orgId },
      actor,
      { action: "invitation.accepted", target: `user-${userId}`, detail: { role: invitation.role } },
      sql`changes() > 0`,
    ),
  ]);
  return rows.length > 0;
}

/** Pending invitations to `email`, with their team's name and who sent them. */
export function listInvitationsTo(db: Db, email: string, now: string) {
  return db
    .select({
      id: invites.id,
      orgId: invites.orgId,
      orgName: orgsTable.name,
      role: invites.role,
      invitedBy: usersTable.username,
      expiresAt: invites.expiresAt,
      createdAt: invites.createdAt,
    })
    .from(invites)
    .innerJoin(orgsTable, eq(orgsTable.id, invites.orgId))
    .leftJoin(usersTable, eq(usersTable.id, invites.invitedBy))
    .where(and(eq(invites.email, email), pendingAt(now)))
    .orderBy(asc(invites.id))
    .limit(100);
}

export async function findPendingInvitationTo(db: Db, id: number, email: string, now: string) {
  const [row] = await db
    .select()
    .from(invites)
    .where(and(eq(invites.id, id), eq(invites.email, email), pendingAt(now)));
  return row ?? null;
}
