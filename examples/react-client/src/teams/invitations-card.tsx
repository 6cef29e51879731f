import { useCallback, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass } from "../ui/field";
import { formatDate } from "../ui/format";
import { Badge, Card, EmptyState } from "../ui/page";
import { toast } from "../ui/toast";
import { useAction } from "../ui/use-action";
import { useLoad } from "../ui/use-load";
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
  const orgId = team.id;
  const load = useCallback(
    async (): Promise<OrgInvitation[]> =>
      (
        await unwrap(
          api.GET("/api/orgs/{orgId}/invitations", { params: { path: { orgId }, query: { limit: 100 } } }),
        )
      ).items,
    [orgId],
  );
  const { data: invitations, error, reload } = useLoad(load);
  const sending = useAction();
  const revoking = useAction();

  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const body = { email: String(data.get("email") ?? ""), role: String(data.get("role")) as GrantableRole };
    void sending.run(async () => {
      await unwrap(api.POST("/api/orgs/{orgId}/invitations", { params: { path: { orgId } }, body }));
      toast({ title: `Invitation sent to ${body.email}` });
      form.reset();
      await reload();
    });
  }

  function revoke(invitation: OrgInvitation) {
    void revoking.run(async () => {
      const path = { orgId, id: invitation.id };
      await unwrap(api.POST("/api/orgs/{orgId}/invitations/{id}/revoke", { params: { path } }));
      toast({ title: `Invitation to ${invitation.email} revoked` });
      await reload();
    });
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
        <Button type="submit" variant="primary" disabled={sending.busy}>
          Send invitation
        </Button>
      </form>
      <ErrorMessage error={sending.error} className="mt-3" />
      <ErrorMessage error={revoking.error ?? error} className="mt-3" />
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
                    onClick={() => revoke(invitation)}
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
