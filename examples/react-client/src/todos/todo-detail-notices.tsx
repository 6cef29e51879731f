import { ApiError } from "../api/client";
import { Button } from "../ui/button";
import { authorLine } from "./todo-author";
import type { Todo } from "./types";
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
  team,
  current,
  onReload,
}: {
  remote: TodoEvent | null;
  error: unknown;
  loadedVersion: number;
  /** A team's todo: the other writer is most likely a teammate. */
  team: boolean;
  /** The version that won, once fetched after a 412. */
  current: Todo | null;
  onReload: () => void;
}) {
  const refused = error instanceof ApiError && error.status === 412;
  const newer = remote !== null && remote.version > loadedVersion;
  if (!refused && !newer) return null;
  const where = team ? "by a teammate or elsewhere" : "elsewhere";
  const message = refused
    ? `Not saved: this todo was changed ${where} since you opened it, and their change was kept. Reload it to see the current version, then make your edit again.`
    : remote?.type === "todo.deleted"
      ? `This todo was deleted ${where}.`
      : team
        ? "A teammate (or another tab, the chat or a connected app) changed this todo."
        : "This todo was changed elsewhere (in another tab, the chat or a connected app).";
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <div className="min-w-0 flex-1 space-y-1">
        <p>{message}</p>
        {refused && current && (
          <p>
            Current version: “{current.title}”, {current.completed ? "done" : "open"}
            {current.orgId !== null && ` (${authorLine(current)})`}.
          </p>
        )}
      </div>
      {remote?.type !== "todo.deleted" && (
        <Button size="sm" onClick={onReload}>
          Reload
        </Button>
      )}
    </div>
  );
}
