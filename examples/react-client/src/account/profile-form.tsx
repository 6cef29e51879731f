import { useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass, CurrentPasswordField } from "../ui/field";
import { Card } from "../ui/page";
import { EmailStatus } from "./email-status";

type User = components["schemas"]["User"];
type UpdateUserBody = components["schemas"]["UpdateUserBody"];

/**
 * Name, e-mail, age and username; only what changed is sent. A new e-mail address asks for the
 * password and waits for the link the service sends to it.
 */
export function ProfileForm({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [email, setEmail] = useState(user.email);
  const changingEmail = email.trim().toLowerCase() !== user.email;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const age = text("age");
    const wanted: UpdateUserBody = {
      name: text("name"),
      email: text("email"),
      username: text("username"),
      age: age === "" ? null : Number(age),
    };
    const body = Object.fromEntries(
      Object.entries(wanted).filter(([key, value]) => value !== user[key as keyof User]),
    ) as UpdateUserBody;
    if (body.email !== undefined) body.currentPassword = text("currentPassword");
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      const next =
        Object.keys(body).length === 0
          ? user
          : await unwrap(api.POST("/api/users/{id}", { params: { path: { id: user.id } }, body }));
      onSaved(next);
      setEmail(next.email);
      setSaved(
        body.email !== undefined && next.pendingEmail
          ? `Saved. Open the link we sent to ${next.pendingEmail} to start using it.`
          : "Saved",
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Your details">
      <form onSubmit={submit} aria-label="Your details" className="grid gap-4 sm:grid-cols-2">
        <Field label="Name">
          <input
            name="name"
            defaultValue={user.name}
            required
            maxLength={100}
            autoComplete="name"
            className={inputClass}
          />
        </Field>
        <Field label="Email" hint="Where password-reset links go.">
          <input
            name="email"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
            autoComplete="email"
            className={inputClass}
          />
        </Field>
        <EmailStatus user={user} onSaved={onSaved} />
        {changingEmail && (
          <CurrentPasswordField
            hint="Needed to change your e-mail address. Your current address is told about the change."
            className="sm:col-span-2"
          />
        )}
        <Field label="Username" hint="You sign in with it.">
          <input
            name="username"
            defaultValue={user.username}
            required
            minLength={3}
            maxLength={32}
            autoComplete="username"
            className={inputClass}
          />
        </Field>
        <Field label="Age (optional)">
          <input
            name="age"
            type="number"
            min={0}
            max={150}
            defaultValue={user.age ?? ""}
            className={inputClass}
          />
        </Field>
        <ErrorMessage error={error} className="sm:col-span-2" />
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" variant="primary" disabled={busy}>
            Save changes
          </Button>
          {saved && (
            <p role="status" className="text-sm text-green-800">
              {saved}
            </p>
          )}
        </div>
      </form>
    </Card>
  );
}
