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

const ENTRY = {
  id: auditLogTable.id,
  at: auditLogTable.at,
  actorId: auditLogTable.actorId,
  door: auditLogTable.door,
  credential: auditLogTable.credential,
  ip: auditLogTable.ip,
  requestId: auditLogTable.requestId,
  action: auditLogTable.action,
  target: auditLogTable.target,
  detail: auditLogTable.detail,
};

/** One page of a trail in one database, newest first (by id), without the actors' names. */
function listEntries(db: Db, scope: AuditScope, filter: AuditFilter) {
  const owner =
    "orgId" in scope ? eq(auditLogTable.orgId, scope.orgId) : eq(auditLogTable.subjectId, scope.subjectId);
  return db
    .select(ENTRY)
    .from(auditLogTable)
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

/**
 * One page of a trail, newest first by id, with the actor's username while their account exists (read in
 * `directory`). A team's trail is in its shard (its data's events, written with them) and in the directory
 * (its members' and settings' events): ids are unique across databases and a shard's are above the
 * directory's (scripts/lib/shard-sequences.mjs), so one id cursor pages through both.
 */
export async function listAudit(
  directory: Db,
  sources: readonly Db[],
  scope: AuditScope,
  filter: AuditFilter,
) {
  const pages = await Promise.all([...new Set(sources)].map((db) => listEntries(db, scope, filter)));
  const rows = pages
    .flat()
    .toSorted((a, b) => b.id - a.id)
    .slice(0, filter.limit + 1);
  const actorIds = [...new Set(rows.flatMap((row) => (row.actorId === null ? [] : [row.actorId])))];
  const names =
    actorIds.length === 0
      ? []
      : await directory
          .select({ id: usersTable.id, username: usersTable.username })
          .from(usersTable)
          .where(inArray(usersTable.id, actorIds));
  const nameOf = new Map(names.map((user) => [user.id, user.username]));
  return rows.map((row) => ({
    ...row,
    actorUsername: row.actorId === null ? null : (nameOf.get(row.actorId) ?? null),
  }));
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
