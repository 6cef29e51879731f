import { useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import type { UploadResult } from "../api/upload";
import { ErrorMessage } from "../ui/error-message";
import { formatBytes } from "../ui/format";
import { FileUpload } from "./file-upload";
import type { Todo } from "./types";

/** New todo: upload files first, then send their keys as `attachments[].fileKey`. */
export function TodoCreateForm({ onCreated }: { onCreated: (todo: Todo) => void }) {
  const [uploads, setUploads] = useState<{ result: UploadResult; name: string }[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    setError(null);
    try {
      const todo = await unwrap(
        api.POST("/api/todos", {
          body: {
            title: String(form.get("title") ?? ""),
            description: String(form.get("description") ?? ""),
            attachments: uploads.map(({ result }) => ({ fileKey: result.key })),
          },
        }),
      );
      formElement.reset();
      setUploads([]);
      onCreated(todo);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card" onSubmit={submit} aria-label="New todo">
      <h2>New todo</h2>
      <label>
        Title
        <input name="title" required maxLength={200} />
      </label>
      <label>
        Description
        <textarea name="description" rows={2} maxLength={10_000} />
      </label>
      <FileUpload
        onUploaded={(result, file) => setUploads((list) => [...list, { result, name: file.name }])}
      />
      {uploads.length > 0 && (
        <ul className="pending" aria-label="Files to attach">
          {uploads.map(({ result, name }) => (
            <li key={result.key}>
              {name} ({formatBytes(result.size)})
              <button
                type="button"
                className="link"
                onClick={() => setUploads((list) => list.filter((u) => u.result.key !== result.key))}
              >
                remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorMessage error={error} />
      <button type="submit" disabled={busy}>
        Add todo
      </button>
    </form>
  );
}
