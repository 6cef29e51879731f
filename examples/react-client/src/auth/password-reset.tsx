import { useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { signOut } from "./session";

/**
 * Forgot your password: asks for a link by e-mail. The service answers the same whether or not the
 * address has an account, and so does this form.
 */
export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "");
    setError(null);
    try {
      const body = { email };
      setSent((await unwrap(api.POST("/api/auth/password-reset", { body }))).message);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <main className="auth">
      <h1>Forgot your password?</h1>
      {sent ? (
        <p className="notice">{sent}</p>
      ) : (
        <form onSubmit={submit} aria-label="Forgot password">
          <label>
            Email
            <input name="email" type="email" autoComplete="email" required />
          </label>
          <ErrorMessage error={error} />
          <button type="submit">E-mail me a link</button>
        </form>
      )}
      <button type="button" className="link" onClick={onBack}>
        Back to sign in
      </button>
    </main>
  );
}

/** The page a reset e-mail links to: a new password for the link's token. */
export function ResetPassword({ token }: { token: string }) {
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    setError(null);
    try {
      await unwrap(api.POST("/api/auth/password-reset/confirm", { body: { token, password } }));
      // The service ended every session of the account; this tab's goes too. Then to the sign-in form.
      signOut("Your password is set. Sign in with it.");
      window.location.hash = "#/todos";
    } catch (err) {
      setError(err);
    }
  }

  return (
    <main className="auth">
      <h1>Choose a new password</h1>
      <form onSubmit={submit} aria-label="New password">
        <label>
          New password
          <input name="password" type="password" autoComplete="new-password" required minLength={8} />
        </label>
        <ErrorMessage error={error} />
        <button type="submit">Set password</button>
      </form>
    </main>
  );
}
