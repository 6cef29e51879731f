import { plural } from "../ui/format";
import { NoteIcon, PaperclipIcon } from "../ui/icons";
import { authorLine } from "./todo-author";
import type { TodoSummary } from "./types";

/**
 * One todo in the list: its box, its title (opens it), the description's first line and its files;
 * a team's todo also says who last changed it. A viewer's box is shown but cannot be ticked.
 */
export function TodoRow({
  todo,
  attachments,
  onToggle,
  onOpen,
  readOnly = false,
}: {
  todo: TodoSummary;
  readOnly?: boolean;
  attachments: number | undefined;
  onToggle: (completed: boolean) => void;
  onOpen: () => void;
}) {
  const firstLine = todo.description.split("\n").find((line) => line.trim()) ?? "";
  return (
    <li className="flex items-start gap-3 py-3">
      <input
        type="checkbox"
        checked={todo.completed}
        disabled={readOnly}
        aria-label={`Done: ${todo.title}`}
        onChange={(event) => onToggle(event.currentTarget.checked)}
        className="mt-1 size-5 shrink-0 accent-orange-700"
      />
      <div className="min-w-0 flex-1">
        <button
          type="button"
          onClick={onOpen}
          className={`title block max-w-full rounded text-left font-medium break-words hover:underline ${
            todo.completed ? "text-slate-600 line-through" : "text-slate-900"
          }`}
        >
          {todo.title}
        </button>
        {(firstLine || !!attachments) && (
          <p className="mt-0.5 flex items-center gap-3 text-sm text-slate-600">
            {firstLine && (
              <span className="flex min-w-0 items-center gap-1">
                <NoteIcon />
                <span className="sr-only">Description: </span>
                <span className="truncate">{firstLine}</span>
              </span>
            )}
            {!!attachments && (
              <span className="flex shrink-0 items-center gap-1">
                <PaperclipIcon />
                {plural(attachments, "file")}
              </span>
            )}
          </p>
        )}
        {todo.orgId !== null && (
          <p className="mt-0.5 text-xs break-words text-slate-600">{authorLine(todo)}</p>
        )}
      </div>
    </li>
  );
}
