import { ApiError } from "../api/client";
import { Button } from "../ui/button";
import type { TodoEvent } from "./use-todo-feed";

/**
 * What the detail tells when the todo changed elsewhere: the feed announced a newer version, or a
 * save was refused (412) because the todo had moved on since it was loaded. Either way nothing of
 * the other writer was overwritten; the person reloads and edits again.
 */
export function StaleNotice({
  remote,
  error,
  loadedVersion,
  onReload,
}: {
  remote: TodoEvent | null;
  error: unknown;
  loadedVersion: number;
  onReload: () => void;
}) {
  const refused = error instanceof ApiError && error.status === 412;
  const newer = remote !== null && remote.version > loadedVersion;
  if (!refused && !newer) return null;
  const message = refused
    ? "Not saved: this todo was changed elsewhere since you opened it. Reload it to see the current version, then make your edit again."
    : remote?.type === "todo.deleted"
      ? "This todo was deleted elsewhere."
      : "This todo was changed elsewhere (in another tab, the chat or a connected app).";
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <p className="min-w-0 flex-1">{message}</p>
      {remote?.type !== "todo.deleted" && (
        <Button size="sm" onClick={onReload}>
          Reload
        </Button>
      )}
    </div>
  );
}
