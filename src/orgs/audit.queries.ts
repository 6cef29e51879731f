import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { AUDIT_CREDENTIALS, AUDIT_DOORS, auditLogTable } from "../db/audit-schema";
import { usersTable } from "../db/schema";

/** Who did it, through which door and with which credential: the same for every entry of one request. */
export interface AuditActor {
  actorId: number | null;
  door: (typeof AUDIT_DOORS)[number];
  credential: (typeof AUDIT_CREDENTIALS)[number] | null;
  ip: string | null;
  requestId: string | null;
}

export interface AuditEvent {
  action: string;
  target?: string;
  detail?: Record<string, string | number | boolean | null>;
}

/** Whose trail the entry is in: a team's, or an account's own. */
export type AuditScope = { orgId: number } | { subjectId: number };

const scopeColumns = (scope: AuditScope) =>
  "orgId" in scope ? { orgId: scope.orgId, subjectId: null } : { orgId: null, subjectId: scope.subjectId };

/** The statement that appends one entry: put it in the batch of the change it records. */
export function auditInsert(db: Db, scope: AuditScope, actor: AuditActor, event: AuditEvent) {
  return db.insert(auditLogTable).values({
    ...scopeColumns(scope),
    ...actor,
    action: event.action,
    target: event.target ?? null,
    detail: event.detail ?? null,
  });
}

/** auditInsert() that appends only when `when` holds as the batch runs (the change it records happened). */
export function auditInsertWhen(db: Db, scope: AuditScope, actor: AuditActor, event: AuditEvent, when: SQL) {
  const { orgId, subjectId } = scopeColumns(scope);
  const detail = event.detail ? JSON.stringify(event.detail) : null;
  return db.insert(auditLogTable).select(
    sql`SELECT NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ${orgId}, ${subjectId}, ${actor.actorId},
        ${actor.door}, ${actor.credential}, ${actor.ip}, ${actor.requestId}, ${event.action},
        ${event.target ?? null}, ${detail} WHERE ${when}`,
  );
}

export interface AuditFilter {
  afterId?: number;
  limit: number;
  action?: string;
  actorId?: number;
}

/** One page of a trail, newest first, with the actor's username while their account exists. */
export function listAudit(db: Db, scope: AuditScope, filter: AuditFilter) {
  const owner =
    "orgId" in scope ? eq(auditLogTable.orgId, scope.orgId) : eq(auditLogTable.subjectId, scope.subjectId);
  return db
    .select({
      id: auditLogTable.id,
      at: auditLogTable.at,
      actorId: auditLogTable.actorId,
      actorUsername: usersTable.username,
      door: auditLogTable.door,
      credential: auditLogTable.credential,
      ip: auditLogTable.ip,
      requestId: auditLogTable.requestId,
      action: auditLogTable.action,
      target: auditLogTable.target,
      detail: auditLogTable.detail,
    })
    .from(auditLogTable)
    .leftJoin(usersTable, eq(usersTable.id, auditLogTable.actorId))
    .where(
      and(
        owner,
        filter.afterId === undefined ? undefined : lt(auditLogTable.id, filter.afterId),
        filter.action === undefined ? undefined : eq(auditLogTable.action, filter.action),
        filter.actorId === undefined ? undefined : eq(auditLogTable.actorId, filter.actorId),
      ),
    )
    .orderBy(desc(auditLogTable.id))
    .limit(filter.limit + 1);
}

export type AuditRow = Awaited<ReturnType<typeof listAudit>>[number];

/** Entries one cron run removes at most: the next run takes the rest. */
const PURGE_BATCH = 1000;

/** Removes entries older than `days` (the hourly cron), at most PURGE_BATCH; answers how many went. */
export async function purgeOldAudit(db: Db, days: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - days * 24 * 3600 * 1000).toISOString();
  const oldest = db
    .select({ id: auditLogTable.id })
    .from(auditLogTable)
    .where(lt(auditLogTable.at, before))
    .limit(PURGE_BATCH);
  const gone = await db
    .delete(auditLogTable)
    .where(inArray(auditLogTable.id, oldest))
    .returning({ id: auditLogTable.id });
  return gone.length;
}
