import type { Logger } from "../core/logger";
import type { Db } from "../db/client";
import { callStorage } from "../files/storage-errors";
import { resolveAttachments, type AttachmentFile } from "./attachments";
import type { AttachmentRow } from "./attachments.queries";
import { syncTodoReminder } from "./reminders";
import * as queries from "./todos.queries";

/**
 * The one way a todo is written, whoever writes it (REST, the chat's tools, MCP): attachment keys
 * looked up in R2, the D1 batch, then the todo's reminder brought in step.
 */
export interface TodoWriter {
  env: Env;
  /** A request's D1 session, or the database itself outside a request. */
  db: Db;
  logger: Logger;
}

export type AttachmentInput = { fileKey: string };

/** R2 lookups for the submitted keys; an R2 failure is a StorageError before anything is written. */
function attachmentFiles(env: Env, inputs: readonly AttachmentInput[]): Promise<AttachmentFile[]> {
  if (inputs.length === 0) return Promise.resolve([]);
  return callStorage("head", () => resolveAttachments(env.R2_BUCKET, inputs));
}

export async function createTodo(
  w: TodoWriter,
  userId: number,
  fields: queries.TodoFields & { title: string },
  attachments: readonly AttachmentInput[] = [],
): Promise<{ todo: queries.TodoRow; attachments: AttachmentRow[] }> {
  const files = await attachmentFiles(w.env, attachments);
  const result = await queries.insertTodoWithAttachments(w.db, { ...fields, userId }, files);
  await syncTodoReminder(w.env, w.logger, result.todo);
  return result;
}

/** The updated todo, or null when `id` is not one of the user's todos (nothing is written then). */
export async function updateTodo(
  w: TodoWriter,
  id: number,
  userId: number,
  fields: queries.TodoFields,
  attachments?: readonly AttachmentInput[],
): Promise<queries.TodoRow | null> {
  let files: AttachmentFile[] | undefined;
  if (attachments !== undefined) {
    // Checked first so a foreign or missing id costs no R2 lookups.
    if (!(await queries.findTodoForUser(w.db, id, userId))) return null;
    files = await attachmentFiles(w.env, attachments);
  }
  const todo = await queries.updateTodoWithAttachments(w.db, id, userId, fields, files);
  if (todo) await syncTodoReminder(w.env, w.logger, todo);
  return todo;
}

/** The deleted todo's id, or null when `id` is not one of the user's todos. */
export async function deleteTodo(w: TodoWriter, id: number, userId: number): Promise<number | null> {
  const deleted = await queries.deleteTodoForUser(w.db, id, userId);
  if (deleted !== null) await syncTodoReminder(w.env, w.logger, { id: deleted, userId, deleted: true });
  return deleted;
}
