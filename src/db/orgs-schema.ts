import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { NOW } from "./now";
import { usersTable } from "./schema";

// Teams (organisations), their members, invitations and the audit trail. Beside schema.ts
// (drizzle.config.ts reads both). The roles and what each may do are in src/orgs/org-roles.ts.

export const ORG_ROLES = ["owner", "admin", "member", "viewer"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];
/** What an invitation or a role change may give: owner moves only by transfer. */
export const GRANTABLE_ROLES = ["admin", "member", "viewer"] as const;
export type GrantableRole = (typeof GRANTABLE_ROLES)[number];

export const orgsTable = sqliteTable("orgs_table", {
  id: integer().primaryKey({ autoIncrement: true }),
  name: text().notNull(),
  // An ownership offer the owner made: to this member, until this time (accepted by them alone).
  transferTo: integer().references(() => usersTable.id, { onDelete: "set null", onUpdate: "cascade" }),
  transferExpiresAt: text(),
  createdAt: text().notNull().default(NOW),
  updatedAt: text().notNull().default(NOW),
});

const orgId = () =>
  integer()
    .notNull()
    .references(() => orgsTable.id, { onDelete: "cascade" });

export const orgMembersTable = sqliteTable(
  "org_members_table",
  {
    orgId: orgId(),
    userId: integer()
      .notNull()
      .references(() => usersTable.id, { onDelete: "cascade", onUpdate: "cascade" }),
    role: text({ enum: ORG_ROLES }).notNull(),
    joinedAt: text().notNull().default(NOW),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.userId] }),
    index("org_members_user_idx").on(t.userId, t.orgId),
    // At most one owner per team, whatever the code does; the transfer's batch demotes before it promotes.
    uniqueIndex("org_members_one_owner")
      .on(t.orgId)
      .where(sql`"role" = 'owner'`),
  ],
);

// Stored statuses; a pending invitation past its expiresAt is answered as "expired" before it is stored so.
export const INVITATION_STATUSES = ["pending", "accepted", "revoked", "declined", "expired"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const orgInvitationsTable = sqliteTable(
  "org_invitations_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    // Lower-cased: the address the token was e-mailed to and the account that may accept it.
    email: text().notNull(),
    role: text({ enum: GRANTABLE_ROLES }).notNull(),
    // SHA-256 of the e-mailed token: the token itself is never stored.
    tokenHash: text().notNull(),
    status: text({ enum: INVITATION_STATUSES }).notNull().default("pending"),
    invitedBy: integer().references(() => usersTable.id, { onDelete: "set null", onUpdate: "cascade" }),
    acceptedBy: integer().references(() => usersTable.id, { onDelete: "set null", onUpdate: "cascade" }),
    expiresAt: text().notNull(),
    createdAt: text().notNull().default(NOW),
    respondedAt: text(),
  },
  (t) => [
    uniqueIndex("org_invitations_token_unique").on(t.tokenHash),
    // One pending invitation per address per team: a second is a UNIQUE failure (409).
    uniqueIndex("org_invitations_one_pending")
      .on(t.orgId, t.email)
      .where(sql`"status" = 'pending'`),
    index("org_invitations_org_idx").on(t.orgId, t.id),
    index("org_invitations_email_idx").on(t.email, t.status),
  ],
);
