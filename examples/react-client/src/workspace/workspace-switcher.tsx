import { ROLE_LABELS, type Org } from "../teams/roles";
import { setWorkspace } from "./workspace";

/** Personal or one of your teams: the choice Todos and Files share. Hidden for someone in no team. */
export function WorkspaceSwitcher({ teams, orgId }: { teams: Org[]; orgId: number | null }) {
  if (teams.length === 0) return null;
  return (
    <label className="flex min-w-0 items-center gap-2 text-sm font-medium text-slate-700">
      Showing
      <select
        value={orgId ?? ""}
        onChange={(event) =>
          setWorkspace(event.currentTarget.value ? Number(event.currentTarget.value) : null)
        }
        className="min-h-9 max-w-[14rem] min-w-0 rounded-lg border border-slate-300 bg-white px-2 text-slate-900"
      >
        <option value="">Personal</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name} ({ROLE_LABELS[team.role]})
          </option>
        ))}
      </select>
    </label>
  );
}
