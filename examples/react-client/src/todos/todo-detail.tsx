import { useEffect, useState, type FormEvent } from "react";
import { api, ApiError, downloadUrl, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { formatBytes, formatDate } from "../ui/format";
import { FileUpload } from "./file-upload";
import { StaleNotice } from "./todo-detail-notices";
import { ifMatch } from "./todo-etag";
import type { Todo, UpdateTodoBody } from "./types";
import type { TodoEvent } from "./use-todo-feed";

interface Props {
  id: number;
  /** Bumped by the list after it changed a todo, so the detail reloads. */
  version: number;
  /** The feed's latest event for this todo, if any: a newer version is announced, not loaded over the form. */
  remote: TodoEvent | null;
  onChanged: () => void;
  onClose: () => void;
}

/** One todo with its attachments: edit, complete, attach more files, download, delete. */
export function TodoDetail({ id, version, remote, onChanged, onClose }: Props) {
  const [todo, setTodo] = useState<Todo | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let current = true;
    setError(null);
    unwrap(api.GET("/api/todos/{id}", { params: { path: { id } } })).then(
      (loaded) => current && setTodo(loaded),
      (err: unknown) => current && setError(err),
    );
    return () => {
      current = false;
    };
  }, [id, version, reloads]);

  async function update(body: UpdateTodoBody) {
    setBusy(true);
    setError(null);
    try {
      // Saved only if the todo is still the version shown here (412 otherwise: see StaleNotice).
      const header = todo ? ifMatch(todo) : undefined;
      setTodo(await unwrap(api.POST("/api/todos/{id}", { params: { path: { id }, header }, body })));
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      const header = todo ? ifMatch(todo) : undefined;
      await unwrap(api.POST("/api/todos/{id}/delete", { params: { path: { id }, header } }));
      onChanged();
      onClose();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void update({
      title: String(form.get("title") ?? ""),
      description: String(form.get("description") ?? ""),
    });
  }

  if (!todo) {
    return (
      <section className="card detail" aria-label="Todo details">
        {error ? <ErrorMessage error={error} /> : <p>Loading…</p>}
      </section>
    );
  }

  const keys = todo.attachments.map(({ fileKey }) => ({ fileKey }));
  return (
    <section className="card detail" aria-label="Todo details">
      <header>
        <h2>Todo #{todo.id}</h2>
        <button type="button" className="link" onClick={onClose}>
          close
        </button>
      </header>
      <StaleNotice
        remote={remote}
        error={error}
        loadedVersion={todo.version}
        onReload={() => setReloads((n) => n + 1)}
      />
      {/* key: reset the uncontrolled inputs when another version of the todo arrives */}
      <form key={todo.updatedAt} onSubmit={save} aria-label="Edit todo">
        <label>
          Title
          <input name="title" defaultValue={todo.title} required maxLength={200} />
        </label>
        <label>
          Description
          <textarea name="description" defaultValue={todo.description} rows={3} maxLength={10_000} />
        </label>
        <label className="inline">
          <input
            type="checkbox"
            checked={todo.completed}
            disabled={busy}
            onChange={(event) => void update({ completed: event.currentTarget.checked })}
          />
          Done{todo.completedAt ? ` (${formatDate(todo.completedAt)})` : ""}
        </label>
        <div className="actions">
          <button type="submit" disabled={busy}>
            Save
          </button>
          <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
            Delete todo
          </button>
        </div>
      </form>

      <h3>Attachments</h3>
      {todo.attachments.length === 0 ? (
        <p className="muted">No attachments yet.</p>
      ) : (
        <ul className="attachments" aria-label="Attachments">
          {todo.attachments.map((attachment) => (
            <li key={attachment.fileKey}>
              <a href={downloadUrl(attachment.fileKey)} download={attachment.fileName}>
                {attachment.fileName}
              </a>{" "}
              <span className="muted">{formatBytes(attachment.fileSize)}</span>
              <button
                type="button"
                className="link"
                disabled={busy}
                onClick={() =>
                  void update({ attachments: keys.filter((key) => key.fileKey !== attachment.fileKey) })
                }
              >
                detach
              </button>
            </li>
          ))}
        </ul>
      )}
      {/* An update replaces the whole set, so send the existing keys along with the new one. */}
      <FileUpload onUploaded={(result) => update({ attachments: [...keys, { fileKey: result.key }] })} />
      {!(error instanceof ApiError && error.status === 412) && <ErrorMessage error={error} />}
    </section>
  );
}
