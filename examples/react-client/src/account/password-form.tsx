import { useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass, CurrentPasswordField } from "../ui/field";
import { Card } from "../ui/page";

/** A new password, proven with the current one. The service keeps this sign-in and ends the others. */
export function PasswordForm({ userId }: { userId: number }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const body = {
      currentPassword: String(form.get("currentPassword") ?? ""),
      password: String(form.get("password") ?? ""),
    };
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      await unwrap(api.POST("/api/users/{id}", { params: { path: { id: userId } }, body }));
      formElement.reset();
      setSaved(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Password" description="Changing it signs you out on every other device.">
      <form onSubmit={submit} aria-label="Change password" className="grid gap-4 sm:grid-cols-2">
        <CurrentPasswordField />
        <Field label="New password" hint="At least 8 characters.">
          <input
            name="password"
            type="password"
            required
            minLength={8}
            autoComplete="new-password"
            className={inputClass}
          />
        </Field>
        <ErrorMessage error={error} fields={{ password: "new password" }} className="sm:col-span-2" />
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" variant="primary" disabled={busy}>
            Change password
          </Button>
          {saved && (
            <p role="status" className="text-sm text-green-800">
              Password changed. Your other devices are signed out.
            </p>
          )}
        </div>
      </form>
    </Card>
  );
}
