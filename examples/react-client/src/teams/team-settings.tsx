import { useState, type FormEvent } from "react";
import { api, unwrap } from "../api/client";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass } from "../ui/field";
import { formatDate } from "../ui/format";
import { Card } from "../ui/page";
import { toast } from "../ui/toast";
import { useAction } from "../ui/use-action";
import { navigate } from "../ui/use-hash-route";
import { canManage, TEAMS_PATH, type Org, type OrgMember } from "./roles";

/** Rename (owner and admins), ownership transfer, and leaving or deleting the team. */
export function TeamSettings({
  team,
  members,
  selfId,
  onChange,
}: {
  team: Org;
  members: OrgMember[];
  selfId: number;
  onChange: () => Promise<void>;
}) {
  const action = useAction();
  const { busy, error } = action;
  const [confirming, setConfirming] = useState<"leave" | "delete" | null>(null);
  const params = { params: { path: { orgId: team.id } } };

  // Each change, then the team as it is now.
  const run = (change: () => Promise<unknown>) =>
    action.run(async () => {
      await change();
      await onChange();
    });

  function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    void run(async () => {
      await unwrap(api.POST("/api/orgs/{orgId}", { ...params, body: { name } }));
      toast({ title: `Team renamed to ${name}` });
    });
  }

  function offer(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const userId = Number(new FormData(event.currentTarget).get("userId"));
    void run(async () => {
      await unwrap(api.POST("/api/orgs/{orgId}/transfer", { ...params, body: { userId } }));
      toast({ title: "Ownership offered", description: "It moves when they accept, within 24 hours." });
    });
  }

  const offeredTo = members.find((member) => member.userId === team.transfer?.userId);
  const others = members.filter((member) => member.userId !== selfId);
  return (
    <Card title="Team settings">
      <div className="space-y-6">
        <ErrorMessage error={error} />
        {canManage(team.role) && (
          <form onSubmit={rename} aria-label="Rename the team" className="flex flex-wrap items-end gap-3">
            <Field label="Team name" className="min-w-0 flex-1 basis-48">
              <input name="name" required maxLength={100} defaultValue={team.name} className={inputClass} />
            </Field>
            <Button type="submit" disabled={busy}>
              Rename
            </Button>
          </form>
        )}
        {team.transfer && team.transfer.userId === selfId && (
          <div className="space-y-2">
            <p className="text-sm text-slate-700">
              The owner offers you ownership of {team.name}, until {formatDate(team.transfer.expiresAt)}.
              Accepting makes you its owner and them an admin.
            </p>
            <Button
              variant="primary"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  await unwrap(api.POST("/api/orgs/{orgId}/transfer/accept", params));
                  toast({ title: `You own ${team.name}` });
                })
              }
            >
              Accept ownership
            </Button>
          </div>
        )}
        {team.role === "owner" && team.transfer && (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-sm text-slate-700">
              Ownership offered to {offeredTo?.name ?? "a member"}, until{" "}
              {formatDate(team.transfer.expiresAt)}.
            </p>
            <Button
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  await unwrap(api.POST("/api/orgs/{orgId}/transfer/cancel", params));
                  toast({ title: "Ownership offer withdrawn" });
                })
              }
            >
              Withdraw offer
            </Button>
          </div>
        )}
        {team.role === "owner" && others.length > 0 && (
          <form onSubmit={offer} aria-label="Transfer ownership" className="flex flex-wrap items-end gap-3">
            <Field
              label="Offer ownership to"
              hint="They become owner when they accept; you stay as an admin."
              className="min-w-0 flex-1 basis-48"
            >
              <select name="userId" required className={inputClass}>
                {others.map((member) => (
                  <option key={member.userId} value={member.userId}>
                    {member.name} ({member.username})
                  </option>
                ))}
              </select>
            </Field>
            <Button type="submit" disabled={busy}>
              Offer ownership
            </Button>
          </form>
        )}
        {team.role === "owner" ? (
          <Button variant="danger" onClick={() => setConfirming("delete")}>
            Delete team
          </Button>
        ) : (
          <Button onClick={() => setConfirming("leave")}>Leave team</Button>
        )}
      </div>
      <ConfirmDialog
        open={confirming === "delete"}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={`Delete ${team.name}?`}
        description={<p>Its members, invitations and activity are erased at once. This cannot be undone.</p>}
        confirmLabel="Delete team"
        onConfirm={async () => {
          await unwrap(api.POST("/api/orgs/{orgId}/delete", params));
          toast({ title: `${team.name} deleted` });
          navigate(TEAMS_PATH);
        }}
      />
      <ConfirmDialog
        open={confirming === "leave"}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={`Leave ${team.name}?`}
        description={<p>You lose access at once; only a new invitation brings you back.</p>}
        confirmLabel="Leave team"
        onConfirm={async () => {
          const path = { orgId: team.id, userId: selfId };
          await unwrap(api.POST("/api/orgs/{orgId}/members/{userId}/delete", { params: { path } }));
          toast({ title: `You left ${team.name}` });
          navigate(TEAMS_PATH);
        }}
      />
    </Card>
  );
}
