import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { NOW } from "./now";

export const AUDIT_DOORS = ["rest", "mcp", "agent", "operator"] as const;
export const AUDIT_CREDENTIALS = ["session", "api_key", "oauth"] as const;

/**
 * The audit trail, append-only: a team's events (orgId set) in the team's data database, an account's own
 * (subjectId set) in the directory. Written in the batch of the change it records. A deleted actor's rows
 * stay, without the actor (erasure sets actorId null, so no name can be joined); a deleted team's or
 * account's rows go with it. No foreign keys: the same table lives in the directory and in every shard.
 */
export const auditLogTable = sqliteTable(
  "audit_log_table",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    at: text().notNull().default(NOW),
    orgId: integer(),
    subjectId: integer(),
    actorId: integer(),
    door: text({ enum: AUDIT_DOORS }).notNull(),
    credential: text({ enum: AUDIT_CREDENTIALS }),
    ip: text(),
    requestId: text(),
    action: text().notNull(),
    target: text(),
    // A small JSON object (roles, names), never a secret.
    detail: text({ mode: "json" }).$type<Record<string, string | number | boolean | null>>(),
  },
  (t) => [
    index("audit_org_idx").on(t.orgId, t.id),
    index("audit_subject_idx").on(t.subjectId, t.id),
    index("audit_at_idx").on(t.at),
  ],
);
