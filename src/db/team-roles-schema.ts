import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ORG_ROLES } from "./orgs-schema";

/**
 * A data database's copy of team members' roles, so a team's todo create and list check the role in their
 * own statement on the shard (src/orgs/team-role-copies.ts). The directory's org_members_table decides; a
 * copy is written from it when a check finds none (or one that refuses), and a role change or removal
 * blanks it (`role` NULL) in every data database, raising `generation` so that a copy read from the
 * directory before the change can no longer be written.
 */
export const teamRolesTable = sqliteTable(
  "team_roles_table",
  {
    orgId: integer().notNull(),
    userId: integer().notNull(),
    role: text({ enum: ORG_ROLES }),
    generation: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), index("team_roles_user_idx").on(t.userId)],
);
