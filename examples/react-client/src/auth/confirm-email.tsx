import { useEffect, useRef, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { AuthLayout } from "./auth-layout";

type EmailConfirmed = components["schemas"]["EmailConfirmed"];

/**
 * The page a verification or e-mail change e-mail links to: it sends the link's token once, signed in
 * or not (the link is the proof), and says what it did.
 */
export function ConfirmEmail({ token }: { token: string }) {
  const [done, setDone] = useState<EmailConfirmed | null>(null);
  const [error, setError] = useState<unknown>(null);
  const sent = useRef(false);

  useEffect(() => {
    // A link works once: React's development double effect must not spend it twice.
    if (sent.current) return;
    sent.current = true;
    unwrap(api.POST("/api/auth/email/confirm", { body: { token } })).then(setDone, setError);
  }, [token]);

  return (
    <AuthLayout title="Confirm your e-mail address">
      {done ? (
        <p role="status" className="rounded-lg bg-green-50 px-3 py-2 text-sm text-green-900">
          {done.changed
            ? `Your account's e-mail address is now ${done.email}.`
            : `${done.email} is confirmed as your account's address.`}
        </p>
      ) : error ? (
        <ErrorMessage error={error} />
      ) : (
        <p role="status" className="text-sm text-slate-600">
          Confirming…
        </p>
      )}
      <Button variant="primary" className="mt-6 w-full" onClick={() => (window.location.hash = "#/todos")}>
        Continue
      </Button>
    </AuthLayout>
  );
}
