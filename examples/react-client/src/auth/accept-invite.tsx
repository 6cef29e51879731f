import { useState } from "react";
import { api, ApiError, unwrap } from "../api/client";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { toast } from "../ui/toast";
import { navigate } from "../ui/use-hash-route";
import { TEAMS_PATH } from "../teams/roles";
import { AuthLayout, LinkButton } from "./auth-layout";
import { logOut } from "./refresh";
import type { Session } from "./session";

/**
 * The page a team invitation e-mail links to, signed in. The service shows nothing of an invitation
 * before it is accepted (the token is the only proof, and it is spent by accepting), so the page asks
 * first and names the team after.
 */
export function AcceptInvite({ token, session }: { token: string; session: Session }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      const team = await unwrap(api.POST("/api/invitations/accept", { body: { token } }));
      toast({ title: `You joined ${team.name}`, description: `Your role: ${team.role}.` });
      navigate(`${TEAMS_PATH}?team=${team.id}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  // 403: another account than the invited address is signed in.
  const wrongAccount = error instanceof ApiError && error.status === 403;
  return (
    <AuthLayout
      title="Join a team"
      footer={<LinkButton onClick={() => navigate("todos")}>Not now</LinkButton>}
    >
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          You were invited to a team. Accept to join it as <strong>{session.username}</strong>: the invitation
          works once, for the account with the address it was sent to.
        </p>
        <ErrorMessage error={error} />
        {wrongAccount && (
          <p className="text-sm text-slate-700">
            Sign out, then sign in or create an account with the invited address: this page comes back.
          </p>
        )}
        <Button variant="primary" className="w-full" disabled={busy} onClick={() => void accept()}>
          Accept invitation
        </Button>
        {wrongAccount && (
          <Button className="w-full" onClick={() => void logOut()}>
            Sign out
          </Button>
        )}
      </div>
    </AuthLayout>
  );
}
