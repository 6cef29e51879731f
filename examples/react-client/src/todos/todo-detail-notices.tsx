import { ApiError } from "../api/client";
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
      : `This todo was changed elsewhere (now version ${remote?.version}).`;
  return (
    <div role="alert" className="error stale">
      <p>{message}</p>
      {remote?.type !== "todo.deleted" && (
        <button type="button" onClick={onReload}>
          Reload
        </button>
      )}
    </div>
  );
}
