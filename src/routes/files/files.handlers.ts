import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import { encodeCursor } from "../../core/paging";
import type { AuthedRouteContext } from "../../http/types";
import { deleteFile, restoreFile } from "../../files/file-delete";
import { dbOfKey } from "../../files/key-places";
import { ownerOfRow, quotaOf } from "../../files/file-owner";
import * as queries from "../../files/file-records.queries";
import { findDeletedFileByKey } from "../../files/file-trash.queries";
import { storeOwnedUpload } from "../../files/owned-upload";
import { usageOf } from "../../files/quota";
import { feedName } from "../../core/feed-names";
import { todoOwner, wakeTodoFeed } from "../../todos/todo-events";
import { accessibleFile, fileNotFound, ownerNamed, requireOwnerAccess } from "./file-access";
import type { GetOneRoute, ListRoute, RemoveRoute, RestoreRoute, UploadRoute } from "./files.routes";
import { teamFileEntry } from "./team-audit";
import { uploadFailure } from "./upload-failures";

export async function upload(c: AuthedRouteContext<UploadRoute>) {
  const { orgId: queryOrgId } = c.req.valid("query");
  const userId = c.get("user").id;
  let stored;
  try {
    stored = await storeOwnedUpload(c.env, c.var.dbs, c.req.raw, {
      userId,
      ownerFor: (formOrgId) => {
        if (formOrgId !== undefined && queryOrgId !== undefined && formOrgId !== queryOrgId) {
          throw new ApiError(400, "Invalid orgId: the form and the query name different teams");
        }
        return ownerNamed(c, formOrgId ?? queryOrgId, "data:write");
      },
      alongsideRecord: (db, file) =>
        teamFileEntry(c, db, file.owner, {
          action: "file.uploaded",
          target: file.key,
          detail: { name: file.originalName, size: file.size },
        }),
    });
  } catch (err) {
    throw await uploadFailure(c.var.dbs.directory, err, userId);
  }
  const { key, etag, size, contentType } = stored;
  c.get("logger").info("upload_stored", { key, size, visibility: stored.visibility });
  return created(c, { key, etag, size, contentType });
}

/** The record without its row id and uploader (the caller, or a member of the team it names). */
const recordView = ({ id: _id, userId: _userId, ...file }: queries.FileRow) => file;

export async function list(c: AuthedRouteContext<ListRoute>) {
  const { cursor, limit, orgId } = c.req.valid("query");
  const owner = await ownerNamed(c, orgId, "data:read");
  const db = await c.var.dbs.of(owner);
  const [rows, usage] = await Promise.all([
    queries.listFilesOf(db, owner, cursor, limit),
    usageOf(db, owner, quotaOf(c.env, owner)),
  ]);
  const page = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(page.at(-1)!.id) : null;
  return ok(c, { items: page.map(recordView), nextCursor, usage });
}

export async function getOne(c: AuthedRouteContext<GetOneRoute>) {
  const { key } = c.req.valid("param");
  return ok(c, recordView((await accessibleFile(c, key, "data:read")).file));
}

export async function remove(c: AuthedRouteContext<RemoveRoute>) {
  const { key } = c.req.valid("param");
  const { detach } = c.req.valid("query");
  const { db, file } = await accessibleFile(c, key, "data:write");
  const audit = teamFileEntry(c, db, ownerOfRow(file), { action: "file.deleted", target: key });
  // Todos of any workspace may attach the key (keys are capabilities): each data database detaches it.
  const elsewhere = (await c.var.dbs.all()).map((shard) => shard.db).filter((other) => other !== db);
  const deleted = await deleteFile(c.env, db, file, detach, audit, elsewhere);
  if (!deleted) throw fileNotFound();
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
  const db = await dbOfKey(c.var.dbs, key);
  // Deleted or not, the file's owner decides who may restore it.
  const found = db && ((await findDeletedFileByKey(db, key)) ?? (await queries.findFileByKey(db, key)));
  if (!db || !found) throw fileNotFound();
  const owner = ownerOfRow(found);
  await requireOwnerAccess(c, owner, "data:write");
  const audit = teamFileEntry(c, db, owner, { action: "file.restored", target: key });
  const file = await restoreFile(c.env, db, key, owner, quotaOf(c.env, owner), audit);
  if (!file) throw fileNotFound();
  c.get("logger").info("file_restored", { key });
  return ok(c, recordView(file));
}
