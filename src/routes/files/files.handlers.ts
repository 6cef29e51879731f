import { storageQuotaBytes } from "../../core/config";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { encodeCursor } from "../../core/paging";
import type { AuthedRouteContext } from "../../http/types";
import { deleteFile, restoreFile } from "../../files/file-delete";
import * as queries from "../../files/file-records.queries";
import { storeOwnedUpload } from "../../files/owned-upload";
import { usageOf } from "../../files/quota";
import { feedName, todoOwner, wakeTodoFeed } from "../../todos/todo-events";
import type { GetOneRoute, ListRoute, RemoveRoute, RestoreRoute, UploadRoute } from "./files.routes";
import { uploadFailure } from "./upload-failures";

const notFound = () => new ApiError(404, "File not found");

export async function upload(c: AuthedRouteContext<UploadRoute>) {
  const userId = c.get("user").id;
  let stored;
  try {
    stored = await storeOwnedUpload(c.env, c.get("db"), userId, c.req.raw);
  } catch (err) {
    throw await uploadFailure(c.get("db"), err, userId);
  }
  const { key, etag, size, contentType } = stored;
  c.get("logger").info("upload_stored", { key, size, visibility: stored.visibility });
  return created(c, { key, etag, size, contentType });
}

/** The record without its row id and owner (the caller is the owner). */
const recordView = ({ id: _id, userId: _userId, ...file }: queries.FileRow) => file;

export async function list(c: AuthedRouteContext<ListRoute>) {
  const { cursor, limit } = c.req.valid("query");
  const db = c.get("db");
  const userId = c.get("user").id;
  const [rows, usage] = await Promise.all([
    queries.listFilesForUser(db, userId, cursor, limit),
    usageOf(db, userId, storageQuotaBytes(c.env)),
  ]);
  const page = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(page.at(-1)!.id) : null;
  return ok(c, { items: page.map(recordView), nextCursor, usage });
}

export async function getOne(c: AuthedRouteContext<GetOneRoute>) {
  const { key } = c.req.valid("param");
  const file = await queries.findFileForUser(c.get("db"), key, c.get("user").id);
  if (!file) throw notFound();
  return ok(c, recordView(file));
}

export async function remove(c: AuthedRouteContext<RemoveRoute>) {
  const { key } = c.req.valid("param");
  const { detach } = c.req.valid("query");
  const db = c.get("db");
  const file = await queries.findFileForUser(db, key, c.get("user").id);
  if (!file) throw notFound();
  const deleted = await deleteFile(c.env, db, file, detach);
  if (!deleted) throw notFound();
  const { todos, restorableUntil } = deleted;
  const logger = c.get("logger");
  logger.info("file_deleted", { key, detached: todos.length });
  // A detached attachment changed each todo (any owner's: keys are capabilities): their owners' feeds hear it.
  const owners = new Map(todos.map((todo) => [feedName(todoOwner(todo)), todoOwner(todo)]));
  c.executionCtx.waitUntil(
    Promise.all([...owners.values()].map((owner) => wakeTodoFeed(c.env, logger, owner))),
  );
  return ok(c, { key, detached: todos.length, restorableUntil });
}

export async function restore(c: AuthedRouteContext<RestoreRoute>) {
  const { key } = c.req.valid("param");
  const file = await restoreFile(c.env, c.get("db"), key, c.get("user").id, storageQuotaBytes(c.env));
  if (!file) throw notFound();
  c.get("logger").info("file_restored", { key });
  return ok(c, recordView(file));
}
