import { Failure } from "../core/failures";
import { RestoreWindowPassedError, restorableSince, restorableUntil } from "../core/restore-window";
import type { Db } from "../db/client";
import {
  deleteFileRecord,
  findFileForUser,
  todosAttaching,
  type DetachedTodo,
  type FileRow,
} from "./file-records.queries";
import { findDeletedFile, restoreDeletedFile } from "./file-trash.queries";
import { refused } from "./quota";

/** The file is attached to todos and the caller did not ask to detach it. */
export class FileAttachedError extends Failure {
  readonly kind = "conflict";

  constructor(todoIds: number[], others: number) {
    const yours =
      todoIds.length > 0 ? `your todo${todoIds.length === 1 ? "" : "s"} ${todoIds.join(", ")}` : "";
    const theirs = others > 0 ? `${others} todo${others === 1 ? "" : "s"} of other users` : "";
    super(
      `File is attached to ${[yours, theirs].filter(Boolean).join(" and ")}: ` +
        "delete with ?detach=true to remove it from them too",
    );
    this.name = "FileAttachedError";
  }
}

export interface DeletedFile {
  /** The todos it was removed from (with `detach`), with their new versions. */
  todos: DetachedTodo[];
  /** Until when POST /api/files/{key}/restore brings it back. */
  restorableUntil: string;
}

/**
 * Deletes a user's file: its record goes (share links by cascade, usage by trigger) and, with
 * `detach`, its attachment rows, in one D1 batch that keeps the record and links for a restore. The
 * object stays in R2 under its key, refused to every download, until the restore window has passed
 * and the hourly cron erases it. Null when the file went meanwhile.
 */
export async function deleteFile(
  env: Env,
  db: Db,
  file: FileRow,
  detach: boolean,
): Promise<DeletedFile | null> {
  const todos = await todosAttaching(db, file.key);
  if (todos.length > 0 && !detach) {
    const yours = todos.filter((todo) => todo.userId === file.userId).map((todo) => todo.id);
    throw new FileAttachedError(yours, todos.length - yours.length);
  }
  const deleted = await deleteFileRecord(db, file, detach);
  return deleted && { todos: deleted.todos, restorableUntil: restorableUntil(env, deleted.deletedAt) };
}

/**
 * Brings a deleted file back within the restore window: the same id, key and object, its share links
 * (those that have not expired meanwhile work again), its bytes counted in the usage again; a file
 * that is not deleted is answered as it stands. Null when `key` is not the user's file, live or
 * deleted. Throws RestoreWindowPassedError, or QuotaExceededError when its size no longer fits.
 */
export async function restoreFile(
  env: Env,
  db: Db,
  key: string,
  userId: number,
  quotaBytes: number,
): Promise<FileRow | null> {
  const deleted = await findDeletedFile(db, key, userId);
  if (!deleted) return findFileForUser(db, key, userId);
  const now = new Date();
  const since = restorableSince(env, now.getTime());
  if (deleted.deletedAt <= since) throw new RestoreWindowPassedError("File", env);
  const file = await restoreDeletedFile(db, deleted, since, quotaBytes, now.toISOString());
  if (file) return file;
  // Restored by another request meanwhile, or purged; otherwise its size did not fit.
  if (!(await findDeletedFile(db, key, userId))) return findFileForUser(db, key, userId);
  throw await refused(db, userId, quotaBytes, deleted.size, "restoring this file");
}
