import { useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { API_ORIGIN } from "../config";
import { ErrorMessage } from "../ui/error-message";
import { formatDate } from "../ui/format";

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
  const [busy, setBusy] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    unwrap(api.GET("/api/oauth/grants")).then(
      (list) => current && setGrants(list.items),
      (err: unknown) => current && setError(err),
    );
    return () => {
      current = false;
    };
  }, [version]);

  async function disconnect(id: string) {
    setBusy(id);
    setError(null);
    try {
      await unwrap(api.POST("/api/oauth/grants/{id}/revoke", { params: { path: { id } } }));
      setVersion((v) => v + 1);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card" aria-label="Connected apps">
      <h2>Connected apps</h2>
      <p className="muted">
        To connect an AI assistant, add a custom connector with the URL <code>{API_ORIGIN}/mcp</code>: it
        signs you in here and asks what it may do.
      </p>
      <ErrorMessage error={error} />
      {grants?.length === 0 && <p className="muted">No apps connected.</p>}
      <ul className="file-list" aria-label="Apps">
        {grants?.map((grant) => (
          <li key={grant.id}>
            <strong>{grant.clientName}</strong>{" "}
            <span className="muted">
              can {grant.scopes.map((scope) => ABILITIES[scope]).join(" and ")} · tokens go to{" "}
              {grant.redirectHost ?? "an unknown host"} · connected {formatDate(grant.createdAt)}
              {grant.expiresAt && ` · until ${formatDate(grant.expiresAt)}`}
            </span>
            <button
              type="button"
              className="link"
              aria-label={`Disconnect ${grant.clientName}`}
              disabled={busy !== null}
              onClick={() => void disconnect(grant.id)}
            >
              disconnect
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
