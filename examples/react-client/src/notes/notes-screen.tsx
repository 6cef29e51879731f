import { useCallback, useEffect, useState, type FormEvent } from "react";
import { AccountTabs } from "../account/account-tabs";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass } from "../ui/field";
import { formatDate } from "../ui/format";
import { Card, EmptyState, Page } from "../ui/page";

type Note = components["schemas"]["Note"];

/** Your notes: write one, see them newest first, delete one (the resource of docs/tutorial.md). */
export function NotesScreen() {
  const [notes, setNotes] = useState<Note[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      setNotes((await unwrap(api.GET("/api/notes"))).items);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  async function write(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setBusy(true);
    try {
      const text = String(new FormData(form).get("text") ?? "");
      await unwrap(api.POST("/api/notes", { body: { text } }));
      form.reset();
      setError(null);
      await reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function remove(note: Note) {
    try {
      await unwrap(api.POST("/api/notes/{id}/delete", { params: { path: { id: note.id } } }));
      await reload();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <Page title="Notes" description="Short notes to yourself.">
      <AccountTabs current="account/notes" />
      <Card>
        <form onSubmit={write} aria-label="New note" className="space-y-3">
          <Field label="Note">
            <textarea name="text" required maxLength={1000} rows={2} className={inputClass} />
          </Field>
          <Button type="submit" variant="primary" disabled={busy}>
            Add note
          </Button>
        </form>
        <ErrorMessage error={error} className="mt-3" />
      </Card>
      <Card title="Your notes">
        {notes?.length === 0 && <EmptyState title="No notes yet.">Write one above.</EmptyState>}
        <ul aria-label="Notes" className="divide-y divide-slate-100">
          {notes?.map((note) => (
            <li key={note.id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="break-words whitespace-pre-line text-slate-900">{note.text}</p>
                <p className="text-sm text-slate-600">{formatDate(note.createdAt)}</p>
              </div>
              <Button onClick={() => void remove(note)} aria-label={`Delete note: ${note.text.slice(0, 40)}`}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
      </Card>
    </Page>
  );
}
