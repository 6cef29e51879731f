import { useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";

type User = components["schemas"]["User"];

/**
 * Whether the account's address is proven, and a change waiting for its link: a verification link can
 * be sent again, and a pending change cancelled (by saving the current address, as the API takes it).
 */
export function EmailStatus({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function act(run: () => Promise<string>) {
    setBusy(true);
    setError(null);
    try {
      setNote(await run());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const resend = () =>
    act(async () => {
      const { email } = await unwrap(api.POST("/api/auth/email/verify"));
      return `A link is on its way to ${email}.`;
    });
  const cancel = () =>
    act(async () => {
      const params = { path: { id: user.id } };
      onSaved(await unwrap(api.POST("/api/users/{id}", { params, body: { email: user.email } })));
      return "The change is cancelled.";
    });

  return (
    <div className="space-y-2 text-sm sm:col-span-2" aria-live="polite">
      {user.pendingEmail ? (
        <p className="flex flex-wrap items-center gap-2 text-amber-900">
          Changing to <strong>{user.pendingEmail}</strong>: open the link we sent there.
          <Button size="sm" variant="ghost" disabled={busy} onClick={cancel}>
            Cancel the change
          </Button>
        </p>
      ) : user.emailVerified ? (
        <p className="text-green-800">Your address is confirmed.</p>
      ) : (
        <p className="flex flex-wrap items-center gap-2 text-amber-900">
          Your address is not confirmed yet: open the link we e-mailed you.
          <Button size="sm" variant="ghost" disabled={busy} onClick={resend}>
            Send the link again
          </Button>
        </p>
      )}
      {note && <p role="status">{note}</p>}
      <ErrorMessage error={error} />
    </div>
  );
}
