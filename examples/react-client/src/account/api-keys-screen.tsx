import { useCallback, useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { formatDate, fromNow } from "../ui/format";
import { Badge, Card, EmptyState, Page } from "../ui/page";
import { toast } from "../ui/toast";
import { AccountTabs } from "./account-tabs";
import { CreateKeyDialog } from "./create-key-dialog";
import { scopeLabel } from "./scopes";

type ApiKey = components["schemas"]["ApiKey"];

function state(key: ApiKey): { label: string; tone: "success" | "neutral" | "danger" } {
  if (key.revokedAt) return { label: "Revoked", tone: "danger" };
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return { label: "Expired", tone: "neutral" };
  return { label: "Active", tone: "success" };
}

/** Keys for scripts and other services: create one (its secret shown once), see them, revoke one. */
export function ApiKeysScreen() {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const reload = useCallback(async () => {
    try {
      setKeys((await unwrap(api.GET("/api/keys", { params: { query: { pageSize: 100 } } }))).items);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  return (
    <Page
      title="API keys"
      description="A key lets a script or another service act as you, with only the permissions you give it."
      actions={
        <Button variant="primary" onClick={() => setCreating(true)}>
          Create key
        </Button>
      }
    >
      <AccountTabs current="account/keys" />
      <Card title="Your keys">
        <ErrorMessage error={error} />
        {keys?.length === 0 && (
          <EmptyState title="No API keys yet.">Create one for a script or a service.</EmptyState>
        )}
        <ul aria-label="API keys" className="divide-y divide-slate-100">
          {keys?.map((key) => {
            const { label, tone } = state(key);
            return (
              <li key={key.id} className="flex flex-wrap items-start gap-x-3 gap-y-2 py-3">
                <div className="min-w-0 flex-1 space-y-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium break-words text-slate-900">{key.name}</span>
                    <Badge tone={tone}>{label}</Badge>
                  </p>
                  <p className="text-sm text-slate-600">
                    <span className="font-mono">wsk_…{key.lastFour}</span> · created {fromNow(key.createdAt)}{" "}
                    · {key.lastUsedAt ? `last used ${fromNow(key.lastUsedAt)}` : "never used"}
                    {key.expiresAt &&
                      ` · ${state(key).label === "Expired" ? "expired" : "expires"} ${formatDate(key.expiresAt)}`}
                  </p>
                  <p className="flex flex-wrap gap-1">
                    {key.scopes.map((scope) => (
                      <Badge key={scope}>{scopeLabel(scope)}</Badge>
                    ))}
                  </p>
                </div>
                {label === "Active" && (
                  <Button size="sm" onClick={() => setRevoking(key)} aria-label={`Revoke ${key.name}`}>
                    Revoke
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </Card>
      {creating && <CreateKeyDialog onClose={() => setCreating(false)} onCreated={() => void reload()} />}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={`Revoke “${revoking?.name}”?`}
        description={<p>Whatever uses this key stops working at once. This can't be undone.</p>}
        confirmLabel="Revoke key"
        onConfirm={async () => {
          if (!revoking) return;
          await unwrap(api.POST("/api/keys/{id}/revoke", { params: { path: { id: revoking.id } } }));
          toast({ title: `Revoked “${revoking.name}”` });
          await reload();
        }}
      />
    </Page>
  );
}
