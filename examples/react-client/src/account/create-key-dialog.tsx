import { useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { Dialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { Checkbox, Field, inputClass, CurrentPasswordField } from "../ui/field";
import { SCOPES, type Scope } from "./scopes";

type CreatedApiKey = components["schemas"]["CreatedApiKey"];

/** Scopes that change data: the service asks the password for a key with one. */
const writesData = (scopes: string[]) => scopes.some((scope) => scope.endsWith(":write"));

const EXPIRY = [
  { days: 0, label: "Never" },
  { days: 30, label: "In 30 days" },
  { days: 90, label: "In 90 days" },
  { days: 365, label: "In a year" },
];

/** Names a key and picks what it may do; then shows its secret, once, with a copy button. */
export function CreateKeyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [writes, setWrites] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const scopes = form.getAll("scopes").map(String) as Scope[];
    const days = Number(form.get("expiry"));
    if (scopes.length === 0) {
      setError(new Error("Choose at least one permission."));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body = {
        name: String(form.get("name") ?? ""),
        scopes,
        ...(days ? { expiresAt: new Date(Date.now() + days * 86_400_000).toISOString() } : {}),
        ...(writesData(scopes) ? { currentPassword: String(form.get("currentPassword") ?? "") } : {}),
      };
      setCreated(await unwrap(api.POST("/api/keys", { body })));
      onCreated();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={created ? "Your new key" : "Create an API key"}
    >
      {created ? (
        <div className="space-y-4">
          <p
            role="status"
            className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
          >
            Copy it now: you won't see it again. Send it as{" "}
            <code className="font-mono">Authorization: Bearer</code> followed by the key.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <input
              readOnly
              value={created.key}
              aria-label="API key"
              onFocus={(event) => event.currentTarget.select()}
              className={`${inputClass} flex-1 font-mono`}
            />
            <CopyButton text={created.key} label="Copy key" />
          </div>
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </div>
      ) : (
        <form
          onSubmit={submit}
          onChange={(event) =>
            setWrites(writesData(new FormData(event.currentTarget).getAll("scopes").map(String)))
          }
          aria-label="New API key"
          className="space-y-4"
        >
          <Field label="Name" hint="What uses it, so you recognise it later.">
            <input
              name="name"
              required
              maxLength={100}
              placeholder="Nightly backup script"
              className={inputClass}
            />
          </Field>
          <fieldset className="space-y-2">
            <legend className="mb-1 text-sm font-medium text-slate-800">It may</legend>
            {SCOPES.map(({ scope, label, hint }) => (
              <Checkbox
                key={scope}
                name="scopes"
                value={scope}
                label={label}
                hint={hint}
                defaultChecked={scope === "todos:read"}
              />
            ))}
          </fieldset>
          <Field label="Expires">
            <select name="expiry" defaultValue={90} className={inputClass}>
              {EXPIRY.map(({ days, label }) => (
                <option key={days} value={days}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          {writes && (
            <CurrentPasswordField hint="A key that changes your data outlives this sign-in, so it takes your password." />
          )}
          <ErrorMessage error={error} />
          <Button type="submit" variant="primary" disabled={busy}>
            Create key
          </Button>
        </form>
      )}
    </Dialog>
  );
}
