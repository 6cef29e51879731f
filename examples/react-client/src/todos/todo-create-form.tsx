import { useRef, useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import type { UploadResult } from "../api/upload";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass } from "../ui/field";
import { formatBytes } from "../ui/format";
import { Card } from "../ui/page";
import { toast } from "../ui/toast";
import { FileUpload } from "./file-upload";
import type { Todo } from "./types";

/**
 * New todo, yours or with `orgId` the team's: upload files first (to the same owner, since a todo
 * attaches only its owner's files), then send their keys as `attachments[].fileKey`.
 */
export function TodoCreateForm({
  orgId,
  onCreated,
}: {
  orgId: number | null;
  onCreated: (todo: Todo) => void;
}) {
  const [uploads, setUploads] = useState<{ result: UploadResult; name: string }[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const title = useRef<HTMLInputElement>(null);

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
            ...(orgId === null ? {} : { orgId }),
          },
        }),
      );
      formElement.reset();
      setUploads([]);
      toast({ title: `Added “${todo.title}”` });
      onCreated(todo);
      title.current?.focus();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="New todo">
      <form onSubmit={submit} aria-label="New todo" className="space-y-4">
        <Field label="Title">
          <input ref={title} name="title" required maxLength={200} className={inputClass} />
        </Field>
        <Field label="Description">
          <textarea name="description" rows={2} maxLength={10_000} className={inputClass} />
        </Field>
        <FileUpload
          orgId={orgId}
          onUploaded={(result, file) => setUploads((list) => [...list, { result, name: file.name }])}
        />
        {uploads.length > 0 && (
          <ul
            aria-label="Files to attach"
            className="divide-y divide-slate-100 rounded-lg border border-slate-200"
          >
            {uploads.map(({ result, name }) => (
              <li key={result.key} className="flex items-center justify-between gap-2 px-3 py-1.5 text-sm">
                <span className="min-w-0 break-words">
                  {name} ({formatBytes(result.size)})
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Don't attach ${name}`}
                  onClick={() => setUploads((list) => list.filter((u) => u.result.key !== result.key))}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <ErrorMessage error={error} />
        <Button type="submit" variant="primary" disabled={busy}>
          Add todo
        </Button>
      </form>
    </Card>
  );
}
