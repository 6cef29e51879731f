import { useCallback } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { ErrorMessage } from "../ui/error-message";
import { formatDate } from "../ui/format";
import { useLoad } from "../ui/use-load";
import { Card, EmptyState } from "../ui/page";
import type { OrgMember } from "./roles";

type AuditEntry = components["schemas"]["AuditEntry"];

// The actions of docs/teams.md, as people say them; an action this list lacks shows as the service names it.
const ACTIONS: Record<string, string> = {
  "org.created": "created the team",
  "org.renamed": "renamed the team",
  "invitation.created": "invited",
  "invitation.accepted": "accepted an invitation",
  "invitation.revoked": "revoked the invitation of",
  "invitation.declined": "declined an invitation",
  "member.role_changed": "changed the role of",
  "member.removed": "removed",
  "member.left": "left the team",
  "org.transfer_offered": "offered ownership to",
  "org.transfer_accepted": "accepted ownership",
  "org.transfer_cancelled": "withdrew the ownership offer",
};

// A target is `user-<id>` or an address: a current member goes by name.
function targetName(target: string, members: OrgMember[]): string {
  const id = Number(/^user-(\d+)$/.exec(target)?.[1]);
  return members.find((member) => member.userId === id)?.name ?? target;
}

/** The team's latest changes, newest first (owner and admins). */
export function TeamActivity({ orgId, members }: { orgId: number; members: OrgMember[] }) {
  const load = useCallback(
    async (): Promise<AuditEntry[]> =>
      (
        await unwrap(
          api.GET("/api/orgs/{orgId}/audit", { params: { path: { orgId }, query: { limit: 20 } } }),
        )
      ).items,
    [orgId],
  );
  const { data: entries, error } = useLoad(load);

  return (
    <Card title="Activity" description="The latest 20 changes.">
      <ErrorMessage error={error} />
      {entries?.length === 0 && <EmptyState title="Nothing yet." />}
      <ol aria-label="Activity" className="divide-y divide-slate-100">
        {entries?.map((entry) => (
          <li key={entry.id} className="py-2 text-sm">
            <p className="break-words text-slate-900">
              <strong className="font-medium">{entry.actorUsername ?? "A deleted account"}</strong>{" "}
              {ACTIONS[entry.action] ?? entry.action}
              {entry.target ? ` ${targetName(entry.target, members)}` : ""}
            </p>
            <p className="text-slate-600">{formatDate(entry.at)}</p>
          </li>
        ))}
      </ol>
    </Card>
  );
}
