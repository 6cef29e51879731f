import { useState } from "react";
import { api, unwrap } from "../api/client";
import { ConfirmDialog } from "../ui/dialog";
import { ErrorMessage } from "../ui/error-message";
import { inputClass } from "../ui/field";
import { formatDate } from "../ui/format";
import { Badge, Card } from "../ui/page";
import { Button } from "../ui/button";
import { toast } from "../ui/toast";
import { useAction } from "../ui/use-action";
import {
  ROLE_LABELS,
  canRemove,
  grantableRoles,
  type GrantableRole,
  type Org,
  type OrgMember,
} from "./roles";

/** The team's members with their roles: change a role or remove someone, as far as your role allows. */
export function MembersCard({
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
  const { error, run } = useAction();
  const [removing, setRemoving] = useState<OrgMember | null>(null);
  const path = (member: OrgMember) => ({ path: { orgId: team.id, userId: member.userId } });

  function setRole(member: OrgMember, role: GrantableRole) {
    void run(async () => {
      await unwrap(api.POST("/api/orgs/{orgId}/members/{userId}", { params: path(member), body: { role } }));
      toast({ title: `${member.name} is now ${ROLE_LABELS[role].toLowerCase()}` });
      await onChange();
    });
  }

  async function remove(member: OrgMember) {
    await unwrap(api.POST("/api/orgs/{orgId}/members/{userId}/delete", { params: path(member) }));
    toast({ title: `${member.name} removed from ${team.name}` });
    await onChange();
  }

  return (
    <Card title="Members">
      <ErrorMessage error={error} className="mb-3" />
      <ul aria-label="Members" className="divide-y divide-slate-100">
        {members.map((member) => {
          const roles = grantableRoles(team.role, member, selfId);
          return (
            <li key={member.userId} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">
                  {member.name}
                  {member.userId === selfId && <span className="text-slate-600"> (you)</span>}
                </p>
                <p className="text-sm break-words text-slate-600">
                  {member.username} · joined {formatDate(member.joinedAt)}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {roles.length > 0 ? (
                  <select
                    aria-label={`Role of ${member.name}`}
                    value={member.role}
                    onChange={(event) => setRole(member, event.target.value as GrantableRole)}
                    className={`${inputClass} w-auto!`}
                  >
                    {roles.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </select>
                ) : (
                  <Badge tone={member.role === "owner" ? "brand" : "neutral"}>
                    {ROLE_LABELS[member.role]}
                  </Badge>
                )}
                {canRemove(team.role, member, selfId) && (
                  <Button onClick={() => setRemoving(member)} aria-label={`Remove ${member.name}`}>
                    Remove
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {removing && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setRemoving(null)}
          title={`Remove ${removing.name}?`}
          description={
            <p>They lose access to {team.name} at their next request. You can invite them again.</p>
          }
          confirmLabel="Remove"
          onConfirm={() => remove(removing)}
        />
      )}
    </Card>
  );
}
