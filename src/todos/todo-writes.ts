import { Failure } from "../core/failures";
import type { Logger } from "../core/logger";
import { orgOwner, userOwner, type Owner } from "../core/owner";
import type { Databases } from "../db/databases";
import { RestoreWindowPassedError, restorableSince, restorableUntil } from "../core/restore-window";
import { deletedKeysIn } from "../files/deleted-keys";
import { callStorage } from "../files/storage-errors";
import type { KeyedWrite } from "../idempotency/keyed-writes";
import type { AuditActor } from "../orgs/audit.queries";
import { resolveAttachments, type AttachmentFile } from "./attachments";
import { mayHaveReminder, syncTodoReminder, type ReminderTodo } from "./reminders";
import { todoOwner, wakeTodoFeed } from "./todo-events";
import { withTeamRole } from "./team-role-check";
import { insertTodoWithAttachments, type CreatedTodo } from "./todo-create.queries";
import { findPlaced, findTodoPlaced, placeReach, type PlacedReach } from "./todo-places";
import { fileKeysOf, findDeletedTodo, restoreDeletedTodo } from "./todo-trash.queries";
import * as queries from "./todo-writes.queries";
import { findTodoInReach, type TodoFields, type TodoRow } from "./todos.queries";

/**
 * The one way a todo is written, whoever writes it (REST, the chat's tools, MCP): attachment keys
 * looked up in R2, the D1 batch (which raises the version and logs the change), then, after the
 * answer, the change published to the owner's live feed and the todo's reminder brought in step.
 */
export interface TodoWriter {
  env: Env;
  /** A request's databases, or openDatabases(env) outside a request. */
  dbs: Databases;
  logger: Logger;
  /** Keeps the work after the commit alive once the caller has answered (a request's or agent's waitUntil). */
  waitUntil: (promise: Promise<unknown>) => void;
  /**
   * Who writes, through which door, for a team's audit trail. With it, the caller's teams' todos are in
   * reach by role (src/todos/todo-reach.ts); without it, only their own.
   */
  actor?: AuditActor;
}

/** The user's reach (their teams' todos too when an actor writes) with each workspace's database. */
const reachOf = (w: TodoWriter, userId: number): Promise<PlacedReach> =>
  placeReach(w.dbs, userId, w.actor !== undefined);

/**
 * The database where todo `id` would be in reach for writing: the reach's only one without a read, else the
 * one that holds it (null: out of reach everywhere).
 */
async function placeTodo(w: TodoWriter, id: number, userId: number) {
  const reach = await reachOf(w, userId);
  if (reach.dbs.length === 1) return { reach, db: reach.dbs[0]! };
  const hit = await findTodoPlaced(reach, id, "data:write");
  return hit && { reach, db: hit.db };
}

/** Todo `id` as it stands, when in reach for writing. */
async function currentTodo(w: TodoWriter, id: number, userId: number): Promise<TodoRow | null> {
  return (await findTodoPlaced(await reachOf(w, userId), id, "data:write"))?.todo ?? null;
}

/** Reminders are a user's own (their chat agent): a team's todo has none. */
function personalReminder(todo: TodoRow, scheduleChanged = false): ReminderTodo | null {
  return todo.userId === null ? null : mayHaveReminder({ ...todo, userId: todo.userId }, scheduleChanged);
}

export type AttachmentInput = { fileKey: string };
export type { ExpectedVersions } from "./todo-writes.queries";

/** A conditional write (If-Match, a tool's expectedVersion) whose todo has moved on: nothing was written. */
export class StaleVersionError extends Failure {
  readonly kind = "precondition_failed";

  constructor(readonly current: TodoRow) {
    super(`Todo changed since you read it: it is at version ${current.version}`);
    this.name = "StaleVersionError";
  }
}

/**
 * R2 lookups for the keys `userId` submits, less the files in the trash (deleted, their objects kept
 * for a restore); an R2 failure is a StorageError before anything is written.
 */
async function attachmentFiles(
  w: TodoWriter,
  inputs: readonly AttachmentInput[],
  userId: number,
): Promise<AttachmentFile[]> {
  if (inputs.length === 0) return [];
  const [files, deleted] = await Promise.all([
    callStorage("head", () => resolveAttachments(w.env.R2_BUCKET, inputs, userId)),
    deletedKeysIn(
      w.dbs,
      inputs.map((input) => input.fileKey),
    ),
  ]);
  return files.filter((file) => !deleted.has(file.fileKey));
}

/**
 * After the commit, in the background, whatever the path: the live feed is woken (it reads the write
 * from the change log), and the owner's agent told when a reminder may be involved. Each logs its own
 * failure; the write stands.
 */
function afterCommit(w: TodoWriter, owner: Owner, version: number, reminder: ReminderTodo | null) {
  w.waitUntil(wakeTodoFeed(w.env, w.logger, owner));
  if (reminder) w.waitUntil(syncTodoReminder(w.env, w.logger, reminder, version));
}

/** A conditional write found the todo at another version: throws with it as it stands, or null if it went since. */
async function refuseStale(w: TodoWriter, id: number, userId: number): Promise<null> {
  const current = await currentTodo(w, id, userId);
  if (current) throw new StaleVersionError(current);
  return null;
}

/**
 * The new todo, `userId`'s own or, with `orgId`, that team's when their role there writes (checked in the
 * insert itself: TeamAccessRefused otherwise, src/todos/team-role-check.ts); with `key`, the
 * Idempotency-Key is taken in the same batch (KeyTakenError when held).
 */
export async function createTodo(
  w: TodoWriter,
  userId: number,
  fields: TodoFields & { title: string },
  attachments: readonly AttachmentInput[] = [],
  key?: KeyedWrite,
  orgId?: number,
): Promise<CreatedTodo> {
  const owner = orgId === undefined ? userOwner(userId) : orgOwner(orgId);
  const db = await w.dbs.of(owner);
  const files = await attachmentFiles(w, attachments, userId);
  const insert = () =>
    insertTodoWithAttachments(db, { ...fields, owner, actorId: userId }, files, key, w.actor);
  const result =
    orgId === undefined
      ? (await insert())!
      : await withTeamRole(w.dbs, db, orgId, userId, "data:write", insert);
  const { todo } = result;
  afterCommit(w, owner, todo.version, personalReminder(todo));
  return result;
}

/**
 * The updated todo, or null when `id` is not in the user's reach (their own todos, and their teams'
 * where their role writes): nothing is written then. With `expected` (the versions an If-Match
 * names), a todo at another version throws StaleVersionError.
 */
export async function updateTodo(
  w: TodoWriter,
  id: number,
  userId: number,
  fields: TodoFields,
  attachments?: readonly AttachmentInput[],
  expected?: queries.ExpectedVersions,
): Promise<TodoRow | null> {
  const placed = await placeTodo(w, id, userId);
  if (!placed) return null;
  const { reach, db } = placed;
  let files: AttachmentFile[] | undefined;
  if (attachments !== undefined) {
    // Checked first so a foreign or missing id costs no R2 lookups.
    if (!(await findTodoInReach(db, id, reach, "data:write"))) return null;
    files = await attachmentFiles(w, attachments, userId);
  }
  const todo = await queries.updateTodoWithAttachments(db, id, reach, fields, files, expected, w.actor);
  if (todo === queries.STALE) return refuseStale(w, id, userId);
  if (todo) {
    afterCommit(w, todoOwner(todo), todo.version, personalReminder(todo, fields.scheduleAt !== undefined));
  }
  return todo;
}

/** What a delete answers: the todo's id, and until when POST /api/todos/{id}/restore brings it back. */
export interface DeletedTodo {
  id: number;
  restorableUntil: string;
}

/**
 * Deletes the todo, kept for a restore for RESTORE_WINDOW_SECONDS; null when `id`
 * is not in the user's reach; stale as for updateTodo.
 */
export async function deleteTodo(
  w: TodoWriter,
  id: number,
  userId: number,
  expected?: queries.ExpectedVersions,
): Promise<DeletedTodo | null> {
  const placed = await placeTodo(w, id, userId);
  if (!placed) return null;
  const deleted = await queries.deleteTodoInReach(placed.db, id, placed.reach, expected, w.actor);
  if (deleted === queries.STALE) return refuseStale(w, id, userId);
  if (deleted === null) return null;
  const reminder =
    deleted.scheduleAt === null || deleted.userId === null
      ? null
      : { id, userId: deleted.userId, deleted: true as const };
  afterCommit(w, todoOwner(deleted), deleted.version, reminder);
  return { id: deleted.id, restorableUntil: restorableUntil(w.env, deleted.deletedAt) };
}

/**
 * Brings a deleted todo back: the same id, its attachments whose files still exist (looked up as a
 * create does), one version above its tombstone, a `todo.created` change. A todo that is not deleted
 * is answered as it stands, unchanged (a repeated Undo, a retry). Null when `id` is not one of the
 * user's todos, live or deleted; RestoreWindowPassedError once the window has passed.
 */
export async function restoreTodo(w: TodoWriter, id: number, userId: number): Promise<TodoRow | null> {
  const reach = await reachOf(w, userId);
  const live = () => currentTodo(w, id, userId);
  const hit = await findPlaced(reach, (db) => findDeletedTodo(db, id, reach));
  if (!hit) return live();
  const { db, found: deleted } = hit;
  const since = restorableSince(w.env);
  if (deleted.deletedAt <= since) throw new RestoreWindowPassedError("Todo", w.env);
  const files = await attachmentFiles(
    w,
    fileKeysOf(deleted).map((fileKey) => ({ fileKey })),
    userId,
  );
  const todo = await restoreDeletedTodo(db, id, reach, since, files, w.actor);
  // Another restore took it meanwhile (it is back), or the purge did (it is not).
  if (!todo) return live();
  afterCommit(w, todoOwner(todo), todo.version, personalReminder(todo));
  return todo;
}
