import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Owner } from "../core/owner";
import type { Db } from "../db/client";
import { checkViolation, notNullViolation } from "../db/errors";
import { jsonObjectOf } from "../db/json-rows";
import { prebuiltSelect, rowMapper, statementBuilder, statementOf } from "../db/prebuilt";
import { NOW, todoAttachmentsTable, todosTable } from "../db/schema";
import {
  keepResult,
  keyValues,
  KeyTakenError,
  unlessKeyHeld,
  type KeyedWrite,
} from "../idempotency/keyed-writes";
import type { AuditActor } from "../orgs/audit.queries";
import { mayInTeam } from "../orgs/team-role-copies.queries";
import type { AttachmentFile } from "./attachments";
import { insertAttachments, listAttachments, type AttachmentRow } from "./attachments.queries";
import { auditValues, prebuiltCreateAudit } from "./team-audit.queries";
import type { TodoFields, TodoRow } from "./todos.queries";

// A todo's create, the hottest write: its statements are rendered once per isolate, plain and with an
// Idempotency-Key taken in the same batch. The change log and counts follow by trigger.

const title = sql.placeholder("title");
const orgId = sql.placeholder("orgId");
// A team's todo names its team only while the shard's copy of the writer's role lets them write: otherwise
// both owners are NULL, the todos_one_owner check fails the batch, and nothing is written. So the role is
// checked in the write's own statement, with no read of the membership before it.
const writableOrgId = sql`CASE WHEN ${mayInTeam(orgId, sql.placeholder("actorId"), "data:write")} THEN ${orgId} END`;

function insertStatement(titleValue: SQL | Placeholder, orgIdValue: SQL | Placeholder) {
  const row = {
    // One of the two is null (the todos_one_owner check): a user's todo, or a team's.
    userId: sql.placeholder("userId"),
    orgId: orgIdValue,
    title: titleValue,
    description: sql.placeholder("description"),
    completed: sql.placeholder("completed"),
    scheduleAt: sql.placeholder("scheduleAt"),
    completedAt: sql`CASE WHEN ${sql.placeholder("completedNow")} THEN ${NOW} END`,
    createdBy: sql.placeholder("actorId"),
    updatedBy: sql.placeholder("actorId"),
  };
  return prebuiltSelect(todosTable, statementBuilder.insert(todosTable).values(row).returning());
}
const insertTodo = insertStatement(title, orgId);
// A held key makes the title NULL: the NOT NULL column then fails the batch, and nothing is written.
const insertKeyedTodo = insertStatement(unlessKeyHeld(title), orgId);
const insertTeamTodo = insertStatement(title, writableOrgId);
const insertKeyedTeamTodo = insertStatement(unlessKeyHeld(title), writableOrgId);

// The new todo has the highest id: D1 runs a batch alone, so no other insert can come between.
const newTodoId = sql`(SELECT max(${todosTable.id}) FROM ${todosTable})`;

/** The new todo and its attachment rows as JSON, for the key's replays (createdTodoOf reads it). */
function createdResult(withAttachments: boolean): SQL {
  const a = todoAttachmentsTable;
  // json(): a subquery's JSON would otherwise be embedded as a string.
  const attachments = withAttachments
    ? sql`json((SELECT json_group_array(${jsonObjectOf(a)}) FROM (SELECT * FROM ${a} WHERE ${a.todoId} = ${todosTable.id} ORDER BY ${a.id}) AS ${a}))`
    : sql`json('[]')`;
  return sql`(SELECT json_object('todo', ${jsonObjectOf(todosTable)}, 'attachments', ${attachments}) FROM ${todosTable} WHERE ${todosTable.id} = ${newTodoId})`;
}
const keepCreated = keepResult(createdResult(false));
const auditCreated = prebuiltCreateAudit(newTodoId);
const keepCreatedWithAttachments = keepResult(createdResult(true));

export interface CreatedTodo {
  todo: TodoRow;
  attachments: AttachmentRow[];
}

const toTodo = rowMapper(todosTable);
const toAttachment = rowMapper(todoAttachmentsTable);

/** The created todo as a keyed create kept it (its `result`). */
export function createdTodoOf(result: string): CreatedTodo {
  const raw = JSON.parse(result) as { todo: Record<string, unknown>; attachments: Record<string, unknown>[] };
  return { todo: toTodo(raw.todo), attachments: raw.attachments.map(toAttachment) };
}

/**
 * The todo and its attachment rows in one batch (one transaction), so a failure leaves no todo
 * without its attachments. With `key`, the same batch takes the Idempotency-Key and keeps the result
 * under it; a held key throws KeyTakenError, with nothing written. A team's todo is written only when the
 * database's copy of the writer's role lets them write (src/orgs/team-role-copies.ts): null, with nothing
 * written, when it does not.
 */
export async function insertTodoWithAttachments(
  db: Db,
  todo: TodoFields & { owner: Owner; actorId: number; title: string },
  files: readonly AttachmentFile[],
  key?: KeyedWrite,
  actor?: AuditActor,
): Promise<CreatedTodo | null> {
  const d1 = db.$client;
  const { owner } = todo;
  const values = {
    userId: owner.kind === "user" ? owner.userId : null,
    orgId: owner.kind === "org" ? owner.orgId : null,
    actorId: todo.actorId,
    title: todo.title,
    description: todo.description ?? todosTable.description.default,
    completed: todo.completed ?? todosTable.completed.default,
    scheduleAt: todo.scheduleAt ?? null,
    completedNow: todo.completed ? 1 : 0,
    ...(key && keyValues(key)),
  };
  const team = owner.kind === "org";
  const insert = team ? (key ? insertKeyedTeamTodo : insertTeamTodo) : key ? insertKeyedTodo : insertTodo;
  const withAttachments = insertAttachments(db, sql`SELECT ${newTodoId} AS id`, files);
  const statements = [insert.bind(d1, values)];
  if (owner.kind === "org" && actor) {
    statements.push(auditCreated.bind(d1, auditValues(actor)));
  }
  statements.push(...withAttachments.map((q) => statementOf(d1, q, values)));
  if (key) statements.push((files.length ? keepCreatedWithAttachments : keepCreated).bind(d1, values));
  let results: D1Result<Record<string, unknown>>[];
  try {
    results = await d1.batch<Record<string, unknown>>(statements);
  } catch (err) {
    if (key && notNullViolation(err) === "todos_table.title") throw new KeyTakenError();
    if (team && checkViolation(err) === "todos_one_owner") return null;
    throw err;
  }
  const [inserted] = insert.rows(results[0]!);
  if (!inserted) throw new Error("todo insert returned no row");
  return { todo: inserted, attachments: files.length ? await listAttachments(db, inserted.id) : [] };
}
