// Typed reads of the teams' vars (wrangler.jsonc); a missing or bad value falls back to its default.

function positiveInt(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : fallback;
}

type OrgVars = Pick<
  Env,
  | "ORG_INVITE_TTL_SECONDS"
  | "ORG_AUDIT_RETENTION_DAYS"
  | "ORG_MAX_TEAMS_PER_USER"
  | "ORG_MAX_MEMBERS"
  | "ORG_MAX_PENDING_INVITES"
  | "ORG_INVITES_PER_HOUR"
>;

export const inviteTtlSeconds = (env: OrgVars) => positiveInt(env.ORG_INVITE_TTL_SECONDS, 7 * 24 * 3600);
export const auditRetentionDays = (env: OrgVars) => positiveInt(env.ORG_AUDIT_RETENTION_DAYS, 365);

export interface OrgLimits {
  teamsPerUser: number;
  membersPerTeam: number;
  pendingInvitesPerTeam: number;
  invitesPerHour: number;
}

export function orgLimits(env: OrgVars): OrgLimits {
  return {
    teamsPerUser: positiveInt(env.ORG_MAX_TEAMS_PER_USER, 20),
    membersPerTeam: positiveInt(env.ORG_MAX_MEMBERS, 100),
    pendingInvitesPerTeam: positiveInt(env.ORG_MAX_PENDING_INVITES, 50),
    invitesPerHour: positiveInt(env.ORG_INVITES_PER_HOUR, 30),
  };
}

/** How long an ownership offer stands. */
export const TRANSFER_TTL_MS = 24 * 3600 * 1000;
