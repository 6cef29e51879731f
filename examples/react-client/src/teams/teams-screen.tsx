import { useCallback, useEffect, useState, type FormEvent } from "react";
import { AccountTabs } from "../account/account-tabs";
import { api, unwrap } from "../api/client";
import type { Session } from "../auth/session";
import { Button } from "../ui/button";
import { ErrorMessage } from "../ui/error-message";
import { Field, inputClass } from "../ui/field";
import { Badge, Card, EmptyState, Page } from "../ui/page";
import { toast } from "../ui/toast";
import { navigate, useHashParam } from "../ui/use-hash-route";
import { MyInvitations } from "./my-invitations";
import { ROLE_LABELS, TEAMS_PATH, type Org } from "./roles";
import { TeamDetail } from "./team-detail";

/** Your teams with your role in each, a form to start one, and invitations to you; `?team=<id>` opens one. */
export function TeamsScreen({ session }: { session: Session }) {
  const teamId = Number(useHashParam("team"));
  if (Number.isInteger(teamId) && teamId > 0)
    return <TeamDetail key={teamId} teamId={teamId} session={session} />;
  return <TeamList />;
}

function TeamList() {
  const [teams, setTeams] = useState<Org[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [createError, setCreateError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      setTeams((await unwrap(api.GET("/api/orgs", { params: { query: { limit: 100 } } }))).items);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    setBusy(true);
    setCreateError(null);
    try {
      const team = await unwrap(api.POST("/api/orgs", { body: { name } }));
      toast({ title: `Team ${team.name} created`, description: "You are its owner." });
      navigate(`${TEAMS_PATH}?team=${team.id}`);
    } catch (err) {
      setCreateError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page title="Teams" description="People you work with: members, roles and invitations.">
      <AccountTabs current={TEAMS_PATH} />
      <Card title="Your teams">
        <ErrorMessage error={error} className="mb-3" />
        {teams?.length === 0 && (
          <EmptyState title="No teams yet.">Create one below, or accept an invitation.</EmptyState>
        )}
        <ul aria-label="Your teams" className="divide-y divide-slate-100">
          {teams?.map((team) => (
            <li key={team.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <a
                href={`#/${TEAMS_PATH}?team=${team.id}`}
                className="min-w-0 rounded font-medium break-words text-orange-800 underline-offset-4 hover:underline"
              >
                {team.name}
              </a>
              <Badge tone={team.role === "owner" ? "brand" : "neutral"}>{ROLE_LABELS[team.role]}</Badge>
            </li>
          ))}
        </ul>
      </Card>
      <Card title="Create a team">
        <form onSubmit={create} aria-label="Create a team" className="space-y-3">
          <Field label="Team name">
            <input name="name" required maxLength={100} className={inputClass} />
          </Field>
          <ErrorMessage error={createError} />
          <Button type="submit" variant="primary" disabled={busy}>
            Create team
          </Button>
        </form>
      </Card>
      <MyInvitations />
    </Page>
  );
}
