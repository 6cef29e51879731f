import { useCallback, useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { passkeysSupported } from "../auth/passkeys";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { fromNow } from "../ui/format";
import { Badge, Card, EmptyState } from "../ui/page";
import { toast } from "../ui/toast";
import { AddPasskeyDialog, RenamePasskeyDialog } from "./passkey-dialogs";

type Passkey = components["schemas"]["Passkey"];

/** Your passkeys: add one on this device, rename or delete any. */
export function PasskeyList() {
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const supported = passkeysSupported();

  const reload = useCallback(async () => {
    try {
      setPasskeys((await unwrap(api.GET("/api/passkeys", { params: { query: { pageSize: 100 } } }))).items);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  return (
    <Card
      title="Passkeys"
      description="Sign in with your fingerprint, face or screen lock instead of your password."
      actions={
        <Button onClick={() => setAdding(true)} disabled={!supported}>
          Add a passkey
        </Button>
      }
    >
      {!supported && <p className="mb-3 text-sm text-slate-600">This browser can't create passkeys.</p>}
      <ErrorMessage error={error} />
      {passkeys?.length === 0 && (
        <EmptyState title="No passkeys yet.">
          Add one to sign in on this device without your password.
        </EmptyState>
      )}
      <ul aria-label="Passkeys" className="divide-y divide-slate-100">
        {passkeys?.map((passkey) => (
          <li key={passkey.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3">
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-medium break-words text-slate-900">{passkey.name}</span>
                <Badge>{passkey.deviceType === "multiDevice" ? "Synced" : "On one device"}</Badge>
              </p>
              <p className="text-sm text-slate-600">
                Added {fromNow(passkey.createdAt)} ·{" "}
                {passkey.lastUsedAt ? `last used ${fromNow(passkey.lastUsedAt)}` : "never used"}
              </p>
            </div>
            <div className="flex gap-2">
              <Button size="sm" onClick={() => setRenaming(passkey)} aria-label={`Rename ${passkey.name}`}>
                Rename
              </Button>
              <Button size="sm" onClick={() => setDeleting(passkey)} aria-label={`Delete ${passkey.name}`}>
                Delete
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {adding && (
        <AddPasskeyDialog
          onClose={() => setAdding(false)}
          onAdded={(passkey) => {
            toast({ title: `Added “${passkey.name}”` });
            void reload();
          }}
        />
      )}
      {renaming && (
        <RenamePasskeyDialog
          passkey={renaming}
          onClose={() => setRenaming(null)}
          onRenamed={() => void reload()}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete “${deleting?.name}”?`}
        description={
          <p>
            It won't sign you in any more. Your device may still offer it: remove it there too (in its
            password or passkey settings).
          </p>
        }
        confirmLabel="Delete passkey"
        onConfirm={async () => {
          if (!deleting) return;
          await unwrap(api.POST("/api/passkeys/{id}/delete", { params: { path: { id: deleting.id } } }));
          toast({ title: `Deleted “${deleting.name}”` });
          await reload();
        }}
      />
    </Card>
  );
}
