import { useCallback, useEffect, useState } from "react";
import { api, ApiError, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { formatDate } from "../ui/format";
import { Card } from "../ui/page";
import { toast } from "../ui/toast";
import { ROLE_LABELS } from "./roles";

type MyInvitation = components["schemas"]["MyInvitation"];

/**
 * The pending invitations to your address. Accepting needs the e-mailed link (its token is nowhere
 * else), so this list only declines. The service lists them for a confirmed address only (403 otherwise).
 */
export function MyInvitations() {
  const [items, setItems] = useState<MyInvitation[] | null>(null);
  const [unconfirmed, setUnconfirmed] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const reload = useCallback(async () => {
    try {
      setItems((await unwrap(api.GET("/api/invitations"))).items);
      setError(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) setUnconfirmed(true);
      else setError(err);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  async function decline(invitation: MyInvitation) {
    try {
      await unwrap(api.POST("/api/invitations/{id}/decline", { params: { path: { id: invitation.id } } }));
      toast({ title: `Invitation to ${invitation.orgName} declined` });
      await reload();
    } catch (err) {
      setError(err);
    }
  }

  if (!unconfirmed && !error && !items?.length) return null;
  return (
    <Card title="Invitations to you" description="To accept one, open the link in its e-mail.">
      {unconfirmed && (
        <p className="text-sm text-slate-600">
          Confirm your e-mail address (on your profile) to see the invitations sent to it here.
        </p>
      )}
      <ErrorMessage error={error} className="mb-3" />
      <ul aria-label="Invitations to you" className="divide-y divide-slate-100">
        {items?.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
            <div className="min-w-0">
              <p className="font-medium break-words text-slate-900">{invitation.orgName}</p>
              <p className="text-sm text-slate-600">
                As {ROLE_LABELS[invitation.role].toLowerCase()}
                {invitation.invitedBy ? `, from ${invitation.invitedBy}` : ""}; until{" "}
                {formatDate(invitation.expiresAt)}
              </p>
            </div>
            <Button
              onClick={() => void decline(invitation)}
              aria-label={`Decline the invitation to ${invitation.orgName}`}
            >
              Decline
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
