import { useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass } from "../ui/field";
import { AuthLayout, LinkButton } from "./auth-layout";
import { passkeysSupported, signInWithPasskey } from "./passkeys";
import { ForgotPassword } from "./password-reset";
import { signIn, signOutNotice } from "./session";

type RegisterBody = components["schemas"]["RegisterBody"];

/**
 * Sign in, or create an account (which signs in too: register answers with a token). `invited`: opened
 * from a team invitation link, which comes back once signed in (its token stays in the URL).
 */
export function AuthScreen({ invited = false }: { invited?: boolean }) {
  const [mode, setMode] = useState<"login" | "register" | "forgot">("login");
  const [error, setError] = useState<unknown>(null);
  // Said under the passkey button, not in the password form above it.
  const [passkeyError, setPasskeyError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const notice = signOutNotice();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    setBusy(true);
    setError(null);
    try {
      if (mode === "login") {
        const body = { username: text("username"), password: text("password") };
        signIn(await unwrap(api.POST("/api/login", { body })));
      } else {
        // What an account needs and no more: the age is optional and set on the profile, if ever.
        const body: RegisterBody = {
          username: text("username"),
          password: text("password"),
          name: text("name"),
          email: text("email"),
        };
        signIn(await unwrap(api.POST("/api/register", { body })));
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function withPasskey() {
    setBusy(true);
    setError(null);
    setPasskeyError(null);
    try {
      await signInWithPasskey();
    } catch (err) {
      setPasskeyError(err);
    } finally {
      setBusy(false);
    }
  }

  if (mode === "forgot") return <ForgotPassword onBack={() => setMode("login")} />;
  const registering = mode === "register";
  const switchTo = (next: "login" | "register" | "forgot") => {
    setMode(next);
    setError(null);
    setPasskeyError(null);
  };
  return (
    <AuthLayout
      title={registering ? "Create an account" : "Sign in"}
      footer={
        <>
          <LinkButton onClick={() => switchTo(registering ? "login" : "register")}>
            {registering ? "I have an account: sign in" : "No account yet? Register"}
          </LinkButton>
          {!registering && <LinkButton onClick={() => switchTo("forgot")}>Forgot your password?</LinkButton>}
        </>
      }
    >
      {invited && (
        <p role="status" className="mb-4 rounded-lg bg-orange-50 px-3 py-2 text-sm text-orange-950">
          You were invited to a team. Sign in, or create an account, with the address the invitation was sent
          to; then you can accept it.
        </p>
      )}
      {notice && (
        <p role="status" className="mb-4 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-800">
          {notice}
        </p>
      )}
      <form onSubmit={submit} aria-label={registering ? "Register" : "Sign in"} className="space-y-4">
        <Field
          label="Username"
          hint={registering ? "3 to 32 letters, digits, dots, dashes or underscores." : undefined}
        >
          <input
            name="username"
            autoComplete="username"
            required
            minLength={3}
            maxLength={32}
            className={inputClass}
          />
        </Field>
        <Field label="Password" hint={registering ? "At least 8 characters." : undefined}>
          <input
            name="password"
            type="password"
            autoComplete={registering ? "new-password" : "current-password"}
            required
            minLength={8}
            className={inputClass}
          />
        </Field>
        {registering && (
          <>
            <Field label="Name" hint="Other signed-in users see it.">
              <input name="name" autoComplete="name" required maxLength={100} className={inputClass} />
            </Field>
            <Field label="Email" hint="For password-reset links only.">
              <input name="email" type="email" autoComplete="email" required className={inputClass} />
            </Field>
          </>
        )}
        <ErrorMessage error={error} />
        <Button type="submit" variant="primary" disabled={busy} className="w-full">
          {registering ? "Create account" : "Sign in"}
        </Button>
      </form>
      {!registering && passkeysSupported() && (
        <div className="mt-4 space-y-4">
          <p className="flex items-center gap-3 text-sm text-slate-600 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200">
            or
          </p>
          <Button onClick={() => void withPasskey()} disabled={busy} className="w-full">
            Sign in with a passkey
          </Button>
          <ErrorMessage error={passkeyError} />
        </div>
      )}
    </AuthLayout>
  );
}
