import { useCallback, useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { logOut } from "../auth/refresh";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { fromNow } from "../ui/format";
import { Badge, Card } from "../ui/page";
import { deviceName } from "./device-name";

type SignIn = components["schemas"]["Session"];

/** Ends every sign-in: the others first, this one last (its token signs the others' revokes). */
async function signOutEverywhere() {
  // The list as it is now: a sign-in since the screen loaded goes too.
  const { items } = await unwrap(api.GET("/api/auth/sessions"));
  for (const other of items.filter((item) => !item.current)) {
    await unwrap(api.POST("/api/auth/sessions/{id}/revoke", { params: { path: { id: other.id } } }));
  }
  await logOut("You are signed out on every device.");
}

/** Where the account is signed in: end one sign-in, or all of them. */
export function SessionList() {
  const [sessions, setSessions] = useState<SignIn[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [everywhere, setEverywhere] = useState(false);

  const reload = useCallback(async () => {
    try {
      setSessions((await unwrap(api.GET("/api/auth/sessions"))).items);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  async function revoke(id: string) {
    setError(null);
    try {
      await unwrap(api.POST("/api/auth/sessions/{id}/revoke", { params: { path: { id } } }));
      await reload();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <Card
      title="Where you're signed in"
      description="Each sign-in lasts up to 7 days after it was last used."
      actions={
        <Button onClick={() => setEverywhere(true)} disabled={!sessions}>
          Sign out everywhere…
        </Button>
      }
    >
      <ErrorMessage error={error} />
      <ul aria-label="Sign-ins" className="divide-y divide-slate-100">
        {sessions?.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3">
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                {deviceName(item.userAgent)}
                {item.current && <Badge tone="brand">This device</Badge>}
              </p>
              <p className="text-sm text-slate-600">
                Signed in {fromNow(item.createdAt)} · last active {fromNow(item.lastUsedAt)}
              </p>
            </div>
            {!item.current && (
              <Button
                size="sm"
                onClick={() => void revoke(item.id)}
                aria-label={`Sign out ${deviceName(item.userAgent)}, signed in ${fromNow(item.createdAt)}`}
              >
                Sign out
              </Button>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={everywhere}
        onOpenChange={setEverywhere}
        title="Sign out everywhere?"
        description={<p>Every device signed in to your account, this one included, has to sign in again.</p>}
        confirmLabel="Sign out everywhere"
        onConfirm={signOutEverywhere}
      />
    </Card>
  );
}
