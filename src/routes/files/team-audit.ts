import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import type { Owner } from "../../core/owner";
import type { Db } from "../../db/client";
import { auditActorOf } from "../../http/audit-actor";
import type { AuthedEnv } from "../../http/types";
import { auditInsertWhen, type AuditEvent } from "../../orgs/audit.queries";

/**
 * The team's audit entry for a write to one of its files, for the write's own batch, placed right
 * after the statement it records: appended only when that statement changed a row. None for a
 * user's own file (their files are not in any trail).
 */
export function teamFileEntry(
  c: Context<AuthedEnv>,
  db: Db,
  owner: Owner,
  event: AuditEvent,
): BatchItem<"sqlite">[] {
  if (owner.kind !== "org") return [];
  const scope = { orgId: owner.orgId };
  // Built on the file's database (the team's shard), whose batch it joins.
  return [auditInsertWhen(db, scope, auditActorOf(c), event, sql`changes() > 0`)];
}
