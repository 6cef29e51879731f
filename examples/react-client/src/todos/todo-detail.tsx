import { useEffect, useRef, useState, type FormEvent } from "react";
import { api, ApiError, downloadUrl, unwrap } from "../api/client";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { Checkbox, Field, inputClass } from "../ui/field";
import { formatBytes, formatDate, fromNow } from "../ui/format";
import { PaperclipIcon } from "../ui/icons";
import { ReadOnlyNotice } from "../workspace/read-only-notice";
import { saveFile } from "../files/file-download";
import { FileUpload } from "./file-upload";
import { authorLine } from "./todo-author";
import { StaleNotice } from "./todo-detail-notices";
import { ifMatch } from "./todo-etag";
import type { Todo, TodoSummary, UpdateTodoBody } from "./types";
import type { TodoEvent } from "./use-todo-feed";

interface Props {
  summary: TodoSummary;
  /** The feed's latest event for this todo, if any: a newer version is announced, not loaded over the form. */
  remote: TodoEvent | null;
  onLoaded: (todo: Todo) => void;
  onChanged: () => void;
  onDelete: (todo: Todo) => void;
  onClose: () => void;
  /** A team's viewer: everything shown, nothing offered that the service would refuse. */
  readOnly?: boolean;
}

/** One todo in a dialog: edit, complete, attach and remove files, download, delete (with Undo). */
export function TodoDetail({
  summary,
  remote,
  onLoaded,
  onChanged,
  onDelete,
  onClose,
  readOnly = false,
}: Props) {
  const [todo, setTodo] = useState<Todo | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [reloads, setReloads] = useState(0);
  // The version that won when a save was refused (412), shown beside the form the person typed in.
  const [winner, setWinner] = useState<Todo | null>(null);
  const id = summary.id;
  // The list's callback, without reloading the todo each time the list renders a new function.
  const loadedCallback = useRef(onLoaded);
  loadedCallback.current = onLoaded;

  useEffect(() => {
    let current = true;
    setError(null);
    setWinner(null);
    unwrap(api.GET("/api/todos/{id}", { params: { path: { id } } })).then(
      (loaded) => {
        if (!current) return;
        setTodo(loaded);
        loadedCallback.current(loaded);
      },
      (err: unknown) => current && setError(err),
    );
    return () => {
      current = false;
    };
  }, [id, reloads]);

  /** Sends a change; `confirm` shows "Saved" after it (the form's Save, not a tick or a file). */
  async function update(body: UpdateTodoBody, confirm = false) {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      // Saved only if the todo is still the version shown here (412 otherwise: see StaleNotice).
      const header = todo ? ifMatch(todo) : undefined;
      const next = await unwrap(api.POST("/api/todos/{id}", { params: { path: { id }, header }, body }));
      setTodo(next);
      onLoaded(next);
      onChanged();
      setSaved(confirm);
    } catch (err) {
      setError(err);
      if (err instanceof ApiError && err.status === 412)
        unwrap(api.GET("/api/todos/{id}", { params: { path: { id } } })).then(setWinner, () =>
          setWinner(null),
        );
    } finally {
      setBusy(false);
    }
  }

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void update(
      { title: String(form.get("title") ?? ""), description: String(form.get("description") ?? "") },
      true,
    );
  }

  const stale = error instanceof ApiError && error.status === 412;
  const keys = todo?.attachments.map(({ fileKey }) => ({ fileKey })) ?? [];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={todo?.title ?? summary.title} wide>
      {!todo ? (
        error ? (
          <ErrorMessage error={error} />
        ) : (
          <p className="text-slate-600">Loading…</p>
        )
      ) : (
        <div className="space-y-6">
          <StaleNotice
            remote={remote}
            error={error}
            loadedVersion={todo.version}
            team={todo.orgId !== null}
            current={winner}
            onReload={() => setReloads((n) => n + 1)}
          />
          {/* key: reset the uncontrolled inputs when another version of the todo arrives */}
          {readOnly && <ReadOnlyNotice what="todos" />}
          <form key={todo.version} onSubmit={save} aria-label="Edit todo" className="space-y-4">
            <fieldset disabled={readOnly} className="space-y-4">
              <Field label="Title">
                <input
                  name="title"
                  defaultValue={todo.title}
                  required
                  maxLength={200}
                  className={inputClass}
                />
              </Field>
              <Field label="Description">
                <textarea
                  name="description"
                  defaultValue={todo.description}
                  rows={4}
                  maxLength={10_000}
                  className={inputClass}
                />
              </Field>
              <Checkbox
                label={todo.completedAt ? `Done (${formatDate(todo.completedAt)})` : "Done"}
                checked={todo.completed}
                disabled={busy}
                onChange={(event) => void update({ completed: event.currentTarget.checked })}
              />
            </fieldset>
            {!readOnly && (
              <div className="flex flex-wrap items-center gap-2">
                <Button type="submit" variant="primary" disabled={busy}>
                  Save
                </Button>
                <Button
                  variant="ghost"
                  className="text-red-700"
                  disabled={busy}
                  onClick={() => onDelete(todo)}
                >
                  Delete todo
                </Button>
                {saved && (
                  <p role="status" className="text-sm text-green-800">
                    Saved
                  </p>
                )}
              </div>
            )}
          </form>
          {!stale && <ErrorMessage error={error} />}

          <section aria-labelledby="attachments-heading" className="space-y-3">
            <h3 id="attachments-heading" className="font-semibold text-slate-900">
              Files
            </h3>
            {todo.attachments.length === 0 ? (
              <p className="text-sm text-slate-600">No files attached.</p>
            ) : (
              <ul
                aria-label="Attachments"
                className="divide-y divide-slate-100 rounded-lg border border-slate-200"
              >
                {todo.attachments.map((attachment) => (
                  <li key={attachment.fileKey} className="flex items-center gap-2 px-3 py-2 text-sm">
                    <PaperclipIcon className="size-4 shrink-0 text-slate-500" />
                    {todo.orgId === null ? (
                      <a
                        href={downloadUrl(attachment.fileKey)}
                        download={attachment.fileName}
                        className="min-w-0 flex-1 font-medium break-words text-orange-800 hover:underline"
                      >
                        {attachment.fileName}
                      </a>
                    ) : (
                      // A team's files are private to it: fetched with the token, not a plain link.
                      <button
                        type="button"
                        onClick={() =>
                          void saveFile({
                            key: attachment.fileKey,
                            visibility: "private",
                            originalName: attachment.fileName,
                          }).catch(setError)
                        }
                        className="min-w-0 flex-1 text-left font-medium break-words text-orange-800 hover:underline"
                      >
                        {attachment.fileName}
                      </button>
                    )}
                    <span className="shrink-0 text-slate-600">{formatBytes(attachment.fileSize)}</span>
                    {!readOnly && (
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={busy}
                        aria-label={`Remove ${attachment.fileName} from this todo`}
                        onClick={() =>
                          void update({
                            attachments: keys.filter((key) => key.fileKey !== attachment.fileKey),
                          })
                        }
                      >
                        Remove
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {/* An update replaces the whole set, so send the existing keys along with the new one. */}
            {!readOnly && (
              <FileUpload
                orgId={todo.orgId}
                onUploaded={(result) => update({ attachments: [...keys, { fileKey: result.key }] })}
              />
            )}
          </section>
          <p className="text-xs text-slate-600">
            {todo.orgId === null
              ? `Created ${fromNow(todo.createdAt)} · changed ${fromNow(todo.updatedAt)}`
              : `${authorLine(todo)} · created by ${todo.createdByUser?.username ?? "a former member"} ${fromNow(todo.createdAt)}`}
          </p>
        </div>
      )}
    </Dialog>
  );
}
