import { useCallback, useEffect, useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { Dialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass } from "../ui/field";
import { fromNow } from "../ui/format";
import { Badge } from "../ui/page";
import type { FileLink, FileRecord } from "./types";

const EXPIRY = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 86_400, label: "1 day" },
  { seconds: 7 * 86_400, label: "7 days" },
  { seconds: 30 * 86_400, label: "30 days" },
];

const STATES: Record<FileLink["state"], { label: string; tone: "success" | "neutral" | "danger" }> = {
  active: { label: "Active", tone: "success" },
  expired: { label: "Expired", tone: "neutral" },
  used_up: { label: "Used up", tone: "neutral" },
  revoked: { label: "Revoked", tone: "danger" },
};

/**
 * Share links of one file: anyone with a link downloads the file (private ones too) until it expires,
 * reaches its download limit or is revoked.
 */
export function ShareDialog({ file, onClose }: { file: FileRecord; onClose: () => void }) {
  const [links, setLinks] = useState<FileLink[] | null>(null);
  const [created, setCreated] = useState<FileLink | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const path = { key: file.key };

  const reload = useCallback(async () => {
    try {
      setLinks(
        (await unwrap(api.GET("/api/files/{key}/links", { params: { path: { key: file.key } } }))).items,
      );
    } catch (err) {
      setError(err);
    }
  }, [file.key]);
  useEffect(() => void reload(), [reload]);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const limit = String(form.get("maxDownloads") ?? "");
    setBusy(true);
    setError(null);
    try {
      const body = {
        expiresIn: Number(form.get("expiresIn")),
        ...(limit ? { maxDownloads: Number(limit) } : {}),
      };
      const link = await unwrap(api.POST("/api/files/{key}/links", { params: { path }, body }));
      // The list first, so the new link and the states of the others show together.
      await reload();
      setCreated(link);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function revoke(link: FileLink) {
    setError(null);
    try {
      await unwrap(
        api.POST("/api/files/{key}/links/{linkId}/revoke", {
          params: { path: { ...path, linkId: link.id } },
        }),
      );
      if (created?.id === link.id) setCreated(null);
      await reload();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Share “${file.originalName}”`}
      description="Anyone with a link can download this file, even a private one, until the link expires or you revoke it."
      wide
    >
      <form
        onSubmit={create}
        aria-label="New share link"
        className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
      >
        <Field label="Expires after">
          <select name="expiresIn" defaultValue={86_400} className={inputClass}>
            {EXPIRY.map(({ seconds, label }) => (
              <option key={seconds} value={seconds}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Download limit (optional)">
          <input
            name="maxDownloads"
            type="number"
            min={1}
            max={1_000_000}
            placeholder="No limit"
            className={inputClass}
          />
        </Field>
        <Button type="submit" variant="primary" disabled={busy}>
          Create link
        </Button>
      </form>
      <ErrorMessage error={error} className="mt-4" />
      {created && (
        <div
          role="status"
          className="mt-4 space-y-2 rounded-lg border border-green-200 bg-green-50 p-3 text-sm"
        >
          <p className="font-medium text-green-900">
            Link created. Copy it and send it to whoever needs the file.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <input
              readOnly
              value={created.url}
              aria-label="New link"
              className={`${inputClass} flex-1 font-mono`}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={created.url} label="Copy link" />
          </div>
        </div>
      )}
      <h3 className="mt-6 mb-2 font-semibold text-slate-900">Links</h3>
      {links?.length === 0 && <p className="text-sm text-slate-600">No links yet.</p>}
      <ul aria-label="Share links" className="divide-y divide-slate-100">
        {links?.map((link) => {
          const state = STATES[link.state];
          return (
            <li key={link.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
              <Badge tone={state.tone}>{state.label}</Badge>
              <span className="min-w-0 flex-1 text-slate-700">
                {link.maxDownloads === null
                  ? `${link.downloads} downloads`
                  : `${link.downloads} of ${link.maxDownloads} downloads`}
                {" · "}
                {link.state === "active"
                  ? `expires ${fromNow(link.expiresAt)}`
                  : `created ${fromNow(link.createdAt)}`}
              </span>
              {link.state === "active" && (
                <span className="flex gap-1">
                  <CopyButton text={link.url} />
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-red-700"
                    onClick={() => void revoke(link)}
                  >
                    Revoke
                  </Button>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
