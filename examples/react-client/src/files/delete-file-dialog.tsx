import { useState } from "react";
import { api, ApiError, unwrap } from "../api/client";
import { ConfirmDialog } from "../ui/dialog";
import type { FileRecord } from "./types";

/**
 * The titles of your todos a refused delete names. The 409 names them by id (the service's message,
 * "your todos 3, 7"); people know them by title, so each is read.
 */
async function attachedTitles(message: string): Promise<string[]> {
  const ids =
    /your todos? ([\d, ]+)/
      .exec(message)?.[1]
      ?.split(",")
      .map((id) => Number(id.trim())) ?? [];
  const todos = await Promise.all(
    ids
      .slice(0, 5)
      .map((id) => unwrap(api.GET("/api/todos/{id}", { params: { path: { id } } })).catch(() => null)),
  );
  return todos.flatMap((todo) => (todo ? [`“${todo.title}”`] : []));
}

/** Asks before deleting a file; if todos use it, names them and asks again before removing it from them. */
export function DeleteFileDialog({
  file,
  onClose,
  onDeleted,
}: {
  file: FileRecord;
  onClose: () => void;
  onDeleted: () => void;
}) {
  // Set when the service refused because todos use the file: who uses it, as people say it.
  const [attached, setAttached] = useState<string | null>(null);

  async function remove(): Promise<boolean> {
    try {
      await unwrap(
        api.POST("/api/files/{key}/delete", {
          params: { path: { key: file.key }, query: attached !== null ? { detach: "true" } : {} },
        }),
      );
      onDeleted();
      return true;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409) || attached !== null) throw err;
      const titles = await attachedTitles(err.message);
      setAttached(titles.length > 0 ? titles.join(", ") : "other todos");
      return false;
    }
  }

  const name = `“${file.originalName}”`;
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={attached === null ? `Delete ${name}?` : `${name} is attached to a todo`}
      description={
        attached === null ? (
          <p>It leaves your files and its share links stop working. You can undo this.</p>
        ) : (
          <p>
            {name} is attached to {attached}. Deleting it also removes it from{" "}
            {attached.includes(",") ? "them" : "that todo"}; undoing the delete brings the file back, not its
            place there.
          </p>
        )
      }
      confirmLabel={attached === null ? "Delete" : "Delete anyway"}
      onConfirm={remove}
    />
  );
}
