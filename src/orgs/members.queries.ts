import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { orgMembersTable, orgsTable, type OrgRole } from "../db/orgs-schema";
import { auditInsertWhen, type AuditActor } from "./audit.queries";

const member = (orgId: number, userId: number, role: OrgRole) =>
  and(eq(orgMembersTable.orgId, orgId), eq(orgMembersTable.userId, userId), eq(orgMembersTable.role, role));

/**
 * Changes the member's role from `from` to `to`, only if it still is `from` (a concurrent change
 * wins, this one answers false). The audit entry is written only when the change was made.
 */
export async function setMemberRole(
  db: Db,
  orgId: number,
  userId: number,
  change: { from: OrgRole; to: OrgRole },
  actor: AuditActor,
): Promise<boolean> {
  const [rows] = await db.batch([
    db
      .update(orgMembersTable)
      .set({ role: change.to })
      .where(member(orgId, userId, change.from))
      .returning({ userId: orgMembersTable.userId }),
    auditInsertWhen(
      db,
      { orgId },
      actor,
      { action: "member.role_changed", target: `user-${userId}`, detail: change },
      sql`changes() > 0`,
    ),
  ]);
  return rows.length > 0;
}

/** Removes the member (who is `role`), or records them leaving when they are the actor; an offer to them goes. */
export async function removeMember(
  db: Db,
  orgId: number,
  userId: number,
  role: OrgRole,
  actor: AuditActor,
): Promise<boolean> {
  const action = actor.actorId === userId ? "member.left" : "member.removed";
  const [rows] = await db.batch([
    db
      .delete(orgMembersTable)
      .where(member(orgId, userId, role))
      .returning({ userId: orgMembersTable.userId }),
    auditInsertWhen(
      db,
      { orgId },
      actor,
      { action, target: `user-${userId}`, detail: { role } },
      sql`changes() > 0`,
    ),
    db
      .update(orgsTable)
      .set({ transferTo: null, transferExpiresAt: null })
      .where(and(eq(orgsTable.id, orgId), eq(orgsTable.transferTo, userId))),
  ]);
  return rows.length > 0;
}
