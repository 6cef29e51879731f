import type { BatchItem } from "drizzle-orm/batch";
import { Failure } from "../core/failures";
import type { Owner } from "../core/owner";
import { RestoreWindowPassedError, restorableSince, restorableUntil } from "../core/restore-window";
import type { Db } from "../db/client";
import {
  deleteFileRecord,
  detachKey,
  findFileOf,
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
 * Deletes a user's or a team's file: its record goes (share links by cascade, usage by trigger) and,
 * with `detach`, its attachment rows, in one D1 batch that keeps the record and links for a restore
 * (and appends `audit`, a team's entry). The object stays in R2 under its key, refused to every
 * download, until the restore window has passed and the hourly cron erases it. Null when the file
 * went meanwhile. Todos of any workspace may attach its key (a key is a capability): `elsewhere` are the
 * other data databases, whose attachments a detach drops first, each in its own batch.
 */
export async function deleteFile(
  env: Env,
  db: Db,
  file: FileRow,
  detach: boolean,
  audit: BatchItem<"sqlite">[] = [],
  elsewhere: readonly Db[] = [],
): Promise<DeletedFile | null> {
  const todos = (await Promise.all([db, ...elsewhere].map((d) => todosAttaching(d, file.key)))).flat();
  if (todos.length > 0 && !detach) {
    const yours = todos.filter((todo) => todo.userId === file.userId).map((todo) => todo.id);
    throw new FileAttachedError(yours, todos.length - yours.length);
  }
  const detached = detach ? (await Promise.all(elsewhere.map((d) => detachKey(d, file.key)))).flat() : [];
  const deleted = await deleteFileRecord(db, file, detach, audit);
  return (
    deleted && {
      todos: [...detached, ...deleted.todos],
      restorableUntil: restorableUntil(env, deleted.deletedAt),
    }
  );
}

/**
 * Brings a deleted file back within the restore window: the same id, key and object, its share links
 * (those that have not expired meanwhile work again), its bytes counted in the usage again; a file
 * that is not deleted is answered as it stands. Null when `key` is not the owner's file, live or
 * deleted. Throws RestoreWindowPassedError, or QuotaExceededError when its size no longer fits the
 * owner's quota. `audit` (a team's entry) is appended in the restoring batch.
 */
export async function restoreFile(
  env: Env,
  db: Db,
  key: string,
  owner: Owner,
  quotaBytes: number,
  audit: BatchItem<"sqlite">[] = [],
): Promise<FileRow | null> {
  const deleted = await findDeletedFile(db, key, owner);
  if (!deleted) return findFileOf(db, key, owner);
  const now = new Date();
  const since = restorableSince(env, now.getTime());
  if (deleted.deletedAt <= since) throw new RestoreWindowPassedError("File", env);
  const file = await restoreDeletedFile(db, deleted, since, quotaBytes, now.toISOString(), audit);
  if (file) return file;
  // Restored by another request meanwhile, or purged; otherwise its size did not fit.
  if (!(await findDeletedFile(db, key, owner))) return findFileOf(db, key, owner);
  throw await refused(db, owner, quotaBytes, deleted.size, "restoring this file");
}
