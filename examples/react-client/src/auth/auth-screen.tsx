import { useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { ErrorMessage } from "../ui/error-message";
import { ForgotPassword } from "./password-reset";
import { signIn, signOutNotice } from "./session";

type RegisterBody = components["schemas"]["RegisterBody"];

/** Sign in, or create an account (which signs in too: register answers with a token). */
export function AuthScreen() {
  const [mode, setMode] = useState<"login" | "register" | "forgot">("login");
  const [error, setError] = useState<unknown>(null);
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
        const age = text("age");
        const body: RegisterBody = {
          username: text("username"),
          password: text("password"),
          name: text("name"),
          email: text("email"),
          ...(age ? { age: Number(age) } : {}),
        };
        signIn(await unwrap(api.POST("/api/register", { body })));
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  if (mode === "forgot") return <ForgotPassword onBack={() => setMode("login")} />;
  const registering = mode === "register";
  return (
    <main className="auth">
      <h1>{registering ? "Create an account" : "Sign in"}</h1>
      {notice && <p className="notice">{notice}</p>}
      <form onSubmit={submit} aria-label={registering ? "Register" : "Sign in"}>
        <label>
          Username
          <input name="username" autoComplete="username" required minLength={3} maxLength={32} />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete={registering ? "new-password" : "current-password"}
            required
            minLength={8}
          />
        </label>
        {registering && (
          <>
            <label>
              Name
              <input name="name" autoComplete="name" required maxLength={100} />
            </label>
            <label>
              Email
              <input name="email" type="email" autoComplete="email" required />
            </label>
            <label>
              Age (optional)
              <input name="age" type="number" min={0} max={150} />
            </label>
          </>
        )}
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          {registering ? "Create account" : "Sign in"}
        </button>
      </form>
      <button
        type="button"
        className="link"
        onClick={() => {
          setMode(registering ? "login" : "register");
          setError(null);
        }}
      >
        {registering ? "I have an account: sign in" : "No account yet? Register"}
      </button>
      {!registering && (
        <button type="button" className="link" onClick={() => setMode("forgot")}>
          Forgot your password?
        </button>
      )}
    </main>
  );
}
