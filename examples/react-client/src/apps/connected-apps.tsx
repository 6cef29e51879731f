import { useCallback, useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { AccountTabs } from "../account/account-tabs";
import { API_ORIGIN } from "../config";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { ConfirmDialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { formatDate } from "../ui/format";
import { Card, EmptyState, Page } from "../ui/page";

type Grant = components["schemas"]["OAuthGrant"];

const ABILITIES: Record<string, string> = {
  "todos:read": "read your todos",
  "todos:write": "change them",
};

/**
 * AI clients (MCP clients) the signed-in user allowed through OAuth to use /mcp, and the way to
 * disconnect each. Names are the apps' own, unverified; React escapes them like all text.
 */
export function ConnectedApps() {
  const [grants, setGrants] = useState<Grant[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [disconnecting, setDisconnecting] = useState<Grant | null>(null);
  const connector = `${API_ORIGIN}/mcp`;

  const reload = useCallback(async () => {
    try {
      setGrants((await unwrap(api.GET("/api/oauth/grants"))).items);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  return (
    <Page title="Connected apps" description="AI assistants you allowed to use your todos.">
      <AccountTabs current="account/apps" />
      <Card
        title="Connect an assistant"
        description="Add a custom connector with this URL: it signs you in here and asks what it may do."
      >
        <div className="flex flex-wrap items-center gap-2">
          <code className="min-w-0 rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900">
            {connector}
          </code>
          <CopyButton text={connector} label="Copy URL" />
        </div>
      </Card>
      <Card title="Your apps">
        <ErrorMessage error={error} />
        {grants?.length === 0 && <EmptyState title="No apps connected." />}
        <ul aria-label="Apps" className="divide-y divide-slate-100">
          {grants?.map((grant) => (
            <li key={grant.id} className="flex flex-wrap items-start gap-x-3 gap-y-2 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-medium break-words text-slate-900">{grant.clientName}</p>
                <p className="text-sm text-slate-600">
                  Can {grant.scopes.map((scope) => ABILITIES[scope]).join(" and ")} · tokens go to{" "}
                  {grant.redirectHost ?? "an unknown host"} · connected {formatDate(grant.createdAt)}
                  {grant.expiresAt && ` · until ${formatDate(grant.expiresAt)}`}
                </p>
              </div>
              <Button
                size="sm"
                aria-label={`Disconnect ${grant.clientName}`}
                onClick={() => setDisconnecting(grant)}
              >
                Disconnect
              </Button>
            </li>
          ))}
        </ul>
      </Card>
      <ConfirmDialog
        open={disconnecting !== null}
        onOpenChange={(open) => !open && setDisconnecting(null)}
        title={`Disconnect “${disconnecting?.clientName}”?`}
        description={<p>It can no longer use your todos. To use it again, connect it again.</p>}
        confirmLabel="Disconnect"
        onConfirm={async () => {
          if (!disconnecting) return;
          await unwrap(
            api.POST("/api/oauth/grants/{id}/revoke", { params: { path: { id: disconnecting.id } } }),
          );
          await reload();
        }}
      />
    </Page>
  );
}
