import { useState, type FormEvent, type ReactNode } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { addPasskey } from "../auth/passkeys";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass, CurrentPasswordField } from "../ui/field";
import { deviceName } from "./device-name";

type Passkey = components["schemas"]["Passkey"];

/** A form in a dialog that runs `save` and closes when it succeeds, showing the failure otherwise. */
function FormDialog({
  title,
  label,
  submitLabel,
  onClose,
  save,
  children,
}: {
  title: string;
  label: string;
  submitLabel: string;
  onClose: () => void;
  save: (form: FormData) => Promise<unknown>;
  children: ReactNode;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await save(form);
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={title}>
      <form onSubmit={submit} aria-label={label} className="space-y-4">
        {children}
        <ErrorMessage error={error} />
        <Button type="submit" variant="primary" disabled={busy}>
          {submitLabel}
        </Button>
      </form>
    </Dialog>
  );
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** Names the passkey and asks for the password; then the device asks its own question (fingerprint, PIN). */
export function AddPasskeyDialog({
  onClose,
  onAdded,
}: {
  onClose: () => void;
  onAdded: (passkey: Passkey) => void;
}) {
  return (
    <FormDialog
      title="Add a passkey"
      label="New passkey"
      submitLabel="Continue"
      onClose={onClose}
      save={async (form) =>
        onAdded(await addPasskey(String(form.get("currentPassword") ?? ""), text(form, "name")))
      }
    >
      <p className="text-sm text-slate-600">
        Your device keeps the passkey and unlocks it with your fingerprint, face or screen lock. Next time,
        sign in with it instead of your password.
      </p>
      <Field label="Name" hint="So you recognise it in this list.">
        <input
          name="name"
          maxLength={100}
          defaultValue={deviceName(navigator.userAgent)}
          className={inputClass}
        />
      </Field>
      <CurrentPasswordField hint="To make sure it's you adding it." />
    </FormDialog>
  );
}

export function RenamePasskeyDialog({
  passkey,
  onClose,
  onRenamed,
}: {
  passkey: Passkey;
  onClose: () => void;
  onRenamed: () => void;
}) {
  return (
    <FormDialog
      title={`Rename “${passkey.name}”`}
      label="Rename passkey"
      submitLabel="Save"
      onClose={onClose}
      save={async (form) => {
        const body = { name: text(form, "name") };
        await unwrap(api.POST("/api/passkeys/{id}", { params: { path: { id: passkey.id } }, body }));
        onRenamed();
      }}
    >
      <Field label="Name">
        <input name="name" required maxLength={100} defaultValue={passkey.name} className={inputClass} />
      </Field>
    </FormDialog>
  );
}
