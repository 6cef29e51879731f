import { useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass } from "../ui/field";
import { AuthLayout, LinkButton } from "./auth-layout";
import { signOut } from "./session";

/**
 * Forgot your password: asks for a link by e-mail. The service answers the same whether or not the
 * address has an account, and so does this form.
 */
export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "");
    setError(null);
    setBusy(true);
    try {
      const body = { email };
      setSent((await unwrap(api.POST("/api/auth/password-reset", { body }))).message);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      footer={<LinkButton onClick={onBack}>Back to sign in</LinkButton>}
    >
      {sent ? (
        <p role="status" className="rounded-lg bg-green-50 px-3 py-2 text-sm text-green-900">
          {sent}
        </p>
      ) : (
        <form onSubmit={submit} aria-label="Forgot password" className="space-y-4">
          <p className="text-sm text-slate-600">
            Enter the e-mail address of your account: we'll send a link to choose a new password.
          </p>
          <Field label="Email">
            <input name="email" type="email" autoComplete="email" required className={inputClass} />
          </Field>
          <ErrorMessage error={error} />
          <Button type="submit" variant="primary" disabled={busy} className="w-full">
            E-mail me a link
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}

/** The page a reset e-mail links to: a new password for the link's token. */
export function ResetPassword({ token }: { token: string }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    setError(null);
    setBusy(true);
    try {
      await unwrap(api.POST("/api/auth/password-reset/confirm", { body: { token, password } }));
      // The service ended every session of the account; this tab's goes too. Then to the sign-in form.
      signOut("Your password is set. Sign in with it.");
      window.location.hash = "#/todos";
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthLayout title="Choose a new password">
      <form onSubmit={submit} aria-label="New password" className="space-y-4">
        <Field
          label="New password"
          hint="At least 8 characters. You'll be signed out everywhere, and your passkeys removed."
        >
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            className={inputClass}
          />
        </Field>
        <ErrorMessage error={error} />
        <Button type="submit" variant="primary" disabled={busy} className="w-full">
          Set password
        </Button>
      </form>
    </AuthLayout>
  );
}
