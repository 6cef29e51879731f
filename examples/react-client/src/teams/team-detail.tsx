import { useCallback } from "react";
import { api, unwrap } from "../api/client";
import type { Session } from "../auth/session";
import { ErrorMessage } from "../ui/error-message";
import { useLoad } from "../ui/use-load";
import { Badge, Page } from "../ui/page";
import { InvitationsCard } from "./invitations-card";
import { MembersCard } from "./members-card";
import { ROLE_LABELS, canManage, TEAMS_PATH, type Org, type OrgMember } from "./roles";
import { TeamActivity } from "./team-activity";
import { TeamSettings } from "./team-settings";

/** One team: its members, invitations (owner and admins), settings and activity. */
export function TeamDetail({ teamId, session }: { teamId: number; session: Session }) {
  const load = useCallback(async (): Promise<[Org, OrgMember[]]> => {
    const [org, page] = await Promise.all([
      unwrap(api.GET("/api/orgs/{orgId}", { params: { path: { orgId: teamId } } })),
      unwrap(
        api.GET("/api/orgs/{orgId}/members", { params: { path: { orgId: teamId }, query: { limit: 100 } } }),
      ),
    ]);
    return [org, page.items];
  }, [teamId]);
  const { data, error, reload } = useLoad(load);
  const [team, members] = data ?? [null, null];

  const back = (
    <a
      href={`#/${TEAMS_PATH}`}
      className="rounded text-sm font-medium text-orange-800 underline-offset-4 hover:underline"
    >
      All teams
    </a>
  );
  if (!team || !members) {
    return (
      <Page title="Team" actions={back}>
        {error ? <ErrorMessage error={error} /> : <p className="text-slate-600">Loading…</p>}
      </Page>
    );
  }
  return (
    <Page
      title={team.name}
      description={
        <>
          Your role:{" "}
          <Badge tone={team.role === "owner" ? "brand" : "neutral"}>{ROLE_LABELS[team.role]}</Badge>
        </>
      }
      actions={back}
    >
      <ErrorMessage error={error} />
      <MembersCard team={team} members={members} selfId={session.userId} onChange={reload} />
      {canManage(team.role) && <InvitationsCard team={team} />}
      <TeamSettings team={team} members={members} selfId={session.userId} onChange={reload} />
      {canManage(team.role) && <TeamActivity orgId={teamId} members={members} />}
    </Page>
  );
}
