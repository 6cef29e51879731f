import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { auditLogTable } from "../db/audit-schema";
import { prebuilt, statementBuilder } from "../db/prebuilt";
import { todosTable } from "../db/schema";
import { deletedTodosTable } from "../db/trash-schema";
import type { AuditActor } from "../orgs/audit.queries";

export type TeamTodoAction = "todo.created" | "todo.updated" | "todo.deleted" | "todo.restored";

/** An actor as the statement takes it: values, or placeholders for a prebuilt statement. */
type ActorColumns = { [K in keyof AuditActor]: AuditActor[K] | Placeholder };

/**
 * The statement that records a write of todo `todoId` (SQL for its id) in its team's audit trail, for
 * the write's own batch, right after the statement that wrote it: it appends only when that statement
 * changed a row and the todo is a team's (a personal todo leaves no entry). A deleted todo is read
 * from the trash, where its delete's batch has just kept it.
 */
export function auditTeamTodo(db: Db, actor: ActorColumns, action: TeamTodoAction, todoId: SQL) {
  const source = action === "todo.deleted" ? deletedTodosTable : todosTable;
  return db.insert(auditLogTable).select(
    sql`SELECT NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), t."orgId", NULL, ${actor.actorId}, ${actor.door},
        ${actor.credential}, ${actor.ip}, ${actor.requestId}, ${action}, 'todo-' || t."id", NULL
        FROM ${source} AS t WHERE t."id" = ${todoId} AND t."orgId" IS NOT NULL AND changes() > 0`,
  );
}

/**
 * auditTeamTodo() of a create, rendered once per isolate as the create's own statements are (drizzle
 * rendering it per request cost a team create more CPU than a personal one); bind auditValues().
 */
export function prebuiltCreateAudit(todoId: SQL) {
  const actor: ActorColumns = {
    actorId: sql.placeholder("auditActorId"),
    door: sql.placeholder("auditDoor"),
    credential: sql.placeholder("auditCredential"),
    ip: sql.placeholder("auditIp"),
    requestId: sql.placeholder("auditRequestId"),
  };
  return prebuilt(auditTeamTodo(statementBuilder, actor, "todo.created", todoId));
}

/** The placeholder values of prebuiltCreateAudit(). */
export function auditValues(actor: AuditActor): Record<string, unknown> {
  return {
    auditActorId: actor.actorId,
    auditDoor: actor.door,
    auditCredential: actor.credential,
    auditIp: actor.ip,
    auditRequestId: actor.requestId,
  };
}
