import { z } from "@hono/zod-openapi";
import { AUDIT_CREDENTIALS, AUDIT_DOORS } from "../../db/audit-schema";
import { CursorQuery } from "../../core/paging";

export const AuditQuery = CursorQuery.extend({
  action: z
    .string()
    .regex(/^[a-z_]+\.[a-z_]+$/, "Must be an action such as member.removed")
    .max(64)
    .optional()
    .openapi({ param: { name: "action", in: "query" }, example: "member.removed" }),
  actorId: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .openapi({ param: { name: "actorId", in: "query" }, example: 1 }),
});

export const AuditEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.string(),
    actorId: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Null once the actor's account is deleted." }),
    actorUsername: z.string().nullable(),
    door: z.enum(AUDIT_DOORS),
    credential: z.enum(AUDIT_CREDENTIALS).nullable(),
    ip: z.string().nullable(),
    requestId: z.string().nullable(),
    action: z.string().openapi({ example: "member.role_changed" }),
    target: z.string().nullable().openapi({ example: "user-42" }),
    detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
  })
  .openapi("AuditEntry", { description: "One event of an audit trail, append-only." });

export const AuditPageSchema = z
  .object({ items: z.array(AuditEntrySchema), nextCursor: z.string().nullable() })
  .openapi("AuditPage");
