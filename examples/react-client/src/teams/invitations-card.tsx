import { useCallback, useEffect, useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass } from "../ui/field";
import { formatDate } from "../ui/format";
import { Badge, Card, EmptyState } from "../ui/page";
import { toast } from "../ui/toast";
import { ROLE_LABELS, type GrantableRole, type Org } from "./roles";

type OrgInvitation = components["schemas"]["OrgInvitation"];

const STATUS_TONES = {
  pending: "warning",
  accepted: "success",
  revoked: "neutral",
  declined: "neutral",
  expired: "neutral",
} as const;

/** Invite someone by e-mail address, see each invitation's status, revoke a pending one (owner and admins). */
export function InvitationsCard({ team }: { team: Org }) {
  const [invitations, setInvitations] = useState<OrgInvitation[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [sendError, setSendError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const orgId = team.id;

  const reload = useCallback(async () => {
    try {
      const query = { limit: 100 };
      setInvitations(
        (await unwrap(api.GET("/api/orgs/{orgId}/invitations", { params: { path: { orgId }, query } })))
          .items,
      );
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [orgId]);
  useEffect(() => void reload(), [reload]);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const body = { email: String(data.get("email") ?? ""), role: String(data.get("role")) as GrantableRole };
    setBusy(true);
    setSendError(null);
    try {
      await unwrap(api.POST("/api/orgs/{orgId}/invitations", { params: { path: { orgId } }, body }));
      toast({ title: `Invitation sent to ${body.email}` });
      form.reset();
      await reload();
    } catch (err) {
      setSendError(err);
    } finally {
      setBusy(false);
    }
  }

  async function revoke(invitation: OrgInvitation) {
    try {
      const path = { orgId, id: invitation.id };
      await unwrap(api.POST("/api/orgs/{orgId}/invitations/{id}/revoke", { params: { path } }));
      toast({ title: `Invitation to ${invitation.email} revoked` });
      await reload();
    } catch (err) {
      setError(err);
    }
  }

  // Inviting as admin is the owner's alone.
  const roles: GrantableRole[] = team.role === "owner" ? ["member", "viewer", "admin"] : ["member", "viewer"];
  return (
    <Card
      title="Invitations"
      description="An invitation goes by e-mail; its link works once, until it expires."
    >
      <form
        onSubmit={send}
        aria-label="Invite someone"
        className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end"
      >
        <Field label="E-mail address">
          <input name="email" type="email" required autoComplete="off" className={inputClass} />
        </Field>
        <Field label="Role">
          <select name="role" defaultValue="member" className={inputClass}>
            {roles.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </Field>
        <Button type="submit" variant="primary" disabled={busy}>
          Send invitation
        </Button>
      </form>
      <ErrorMessage error={sendError} className="mt-3" />
      <ErrorMessage error={error} className="mt-3" />
      <div className="mt-4">
        {invitations?.length === 0 && <EmptyState title="No invitations yet." />}
        <ul aria-label="Invitations" className="divide-y divide-slate-100">
          {invitations?.map((invitation) => (
            <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="font-medium break-all text-slate-900">{invitation.email}</p>
                <p className="text-sm text-slate-600">
                  {ROLE_LABELS[invitation.role]} · sent {formatDate(invitation.createdAt)}
                </p>
              </div>
              <div className="flex items-center gap-2">
                <Badge tone={STATUS_TONES[invitation.status]}>{invitation.status}</Badge>
                {invitation.status === "pending" && (
                  <Button
                    onClick={() => void revoke(invitation)}
                    aria-label={`Revoke the invitation to ${invitation.email}`}
                  >
                    Revoke
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
