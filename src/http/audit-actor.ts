import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Databases } from "../db/databases";
import { auditInsert, auditInsertWhen, type AuditActor, type AuditEvent } from "../orgs/audit.queries";
import type { McpCredential } from "../auth/credentials";
import type { AuthedEnv } from "./types";

interface RequestContext {
  req: { header(name: string): string | undefined };
  var: Pick<AuthedEnv["Variables"], "user" | "credential" | "requestId">;
}

/** The trail's name for a credential (REST's, /mcp's, a socket's): a login token without a session counts as a session. */
export function auditCredential(kind: McpCredential["kind"]): NonNullable<AuditActor["credential"]> {
  return kind === "api_key" || kind === "oauth" ? kind : "session";
}

/** Who a REST request acts as, for the audit entries its writes append. */
export function auditActorOf(c: RequestContext): AuditActor & { actorId: number } {
  return {
    actorId: c.var.user.id,
    door: "rest",
    credential: auditCredential(c.var.credential.kind),
    ip: c.req.header("cf-connecting-ip") ?? null,
    requestId: c.var.requestId,
  };
}

interface AnyRequestContext {
  req: { header(name: string): string | undefined };
  var: { dbs: Databases; requestId: string };
}

/**
 * The statement that appends an event to `userId`'s own trail (GET /api/me/audit), for the batch of the
 * change it records; `ifChanged`: only when the statement before it in the batch changed a row.
 */
export function accountEntry(
  c: AnyRequestContext,
  userId: number,
  event: AuditEvent,
  { ifChanged = false, credential = "session" as AuditActor["credential"], actorId = userId } = {},
): BatchItem<"sqlite"> {
  const actor: AuditActor = {
    actorId,
    door: "rest",
    credential,
    ip: c.req.header("cf-connecting-ip") ?? null,
    requestId: c.var.requestId,
  };
  const scope = { subjectId: userId };
  return ifChanged
    ? auditInsertWhen(c.var.dbs.directory, scope, actor, event, sql`changes() > 0`)
    : auditInsert(c.var.dbs.directory, scope, actor, event);
}
