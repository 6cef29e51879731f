import { useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { Org } from "../teams/roles";
import { setWorkspace, useWorkspace } from "./workspace";

/**
 * Your teams (with your role) and the chosen one. A remembered team you no longer belong to falls
 * back to your own, so a screen never asks the service for a team it would answer 404 for.
 */
export function useMyTeams() {
  const orgId = useWorkspace();
  const [teams, setTeams] = useState<Org[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let current = true;
    unwrap(api.GET("/api/orgs", { params: { query: { limit: 100 } } })).then(
      (page) => current && setTeams(page.items),
      (err: unknown) => current && setError(err),
    );
    return () => {
      current = false;
    };
  }, []);

  const team = teams?.find((t) => t.id === orgId) ?? null;
  useEffect(() => {
    if (teams && orgId !== null && !team) setWorkspace(null);
  }, [teams, orgId, team]);

  // Until the teams are known, a remembered team is not yet trusted: show nothing rather than guess.
  const ready = teams !== null || error !== null;
  return { teams: teams ?? [], team, orgId: team ? team.id : null, ready, error };
}
