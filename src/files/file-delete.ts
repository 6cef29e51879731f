import { Failure } from "../core/failures";
import type { Db } from "../db/client";
import { deleteFileRecord, todosAttaching, type DetachedTodo, type FileRow } from "./file-records.queries";
import { callStorage } from "./storage-errors";

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

/**
 * Deletes a user's file: the object, then its record (share links by cascade, usage by trigger) and,
 * with `detach`, its attachment rows. The object goes first: if D1 then fails, the record remains
 * and a retry finishes the job. Returns the todos it was removed from, with their new versions.
 */
export async function deleteFile(
  bucket: R2Bucket,
  db: Db,
  file: FileRow,
  detach: boolean,
): Promise<DetachedTodo[]> {
  const todos = await todosAttaching(db, file.key);
  if (todos.length > 0 && !detach) {
    const yours = todos.filter((todo) => todo.userId === file.userId).map((todo) => todo.id);
    throw new FileAttachedError(yours, todos.length - yours.length);
  }
  await callStorage("delete", () => bucket.delete(file.key));
  return (await deleteFileRecord(db, file, detach)) ?? [];
}
