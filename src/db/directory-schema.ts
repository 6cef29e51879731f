// The directory database (binding DB): who exists and where their data lives. drizzle.config.ts generates
// migrations/ from this list and from data-schema.ts (the directory keeps its own copies of the data tables
// for workspaces still on it, LEGACY_SHARD).
export { usersTable, userCredentialsTable } from "./schema";
export {
  sessionsTable,
  refreshTokensTable,
  apiKeysTable,
  passwordResetsTable,
  emailLinksTable,
  passkeysTable,
  usedPasskeyChallengesTable,
  usedTicketsTable,
  agentSocketsTable,
} from "./credentials-schema";
export { orgsTable, orgMembersTable, orgInvitationsTable } from "./orgs-schema";
export { anonUsageTable } from "./usage-schema";
export { workspacesTable, shardLoadsTable } from "./workspaces-schema";
// Where rows found by keys from before shards went when their workspace moved (src/db/carried-owner.ts).
export { legacyLocatorsTable } from "./legacy-locators-schema";
// The account audit (subjectId rows); a team's audit lives in its shard.
export { auditLogTable } from "./audit-schema";
// Id ranges handed to the data databases (src/shards/id-blocks.ts).
export { idBlocksTable } from "./id-blocks-schema";
