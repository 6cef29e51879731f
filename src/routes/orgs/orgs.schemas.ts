import { z } from "@hono/zod-openapi";
import { GRANTABLE_ROLES, ORG_ROLES } from "../../db/orgs-schema";
import { idParam } from "../../core/paging";

export const OrgIdParams = z.object({ orgId: idParam("orgId") });
export const MemberParams = OrgIdParams.extend({ userId: idParam("userId") });

export const OrgRoleSchema = z.enum(ORG_ROLES).openapi("OrgRole", {
  description:
    "`viewer` reads the team's data; `member` also writes it; `admin` also invites, revokes, renames the " +
    "team and changes or removes members and viewers; `owner` (exactly one) also grants and removes admin, " +
    "deletes the team and offers ownership.",
});

/** What an invitation or a role change may give: never owner, which moves only by transfer. */
export const GrantableRoleSchema = z.enum(GRANTABLE_ROLES).openapi("OrgGrantableRole", {
  description: "Owner is never granted: ownership moves only by transfer.",
});

export const TeamNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/\S/, "Must not be blank")
  .openapi({ example: "Platform team" });

export const OrgSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    role: OrgRoleSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
    transfer: z
      .object({ userId: z.number().int(), expiresAt: z.string() })
      .nullable()
      .openapi({ description: "The owner's standing offer of ownership, if any." }),
  })
  .openapi("Org", { description: "A team, with your role in it." });

export const OrgPageSchema = z
  .object({ items: z.array(OrgSchema), nextCursor: z.string().nullable() })
  .openapi("OrgPage");

export const CreateOrgBody = z.object({ name: TeamNameSchema }).strict().openapi("CreateOrgBody");
export const RenameOrgBody = z.object({ name: TeamNameSchema }).strict().openapi("RenameOrgBody");

export const DeletedOrgSchema = z
  .object({
    id: z.number().int(),
    erased: z.object({
      members: z.number().int(),
      invitations: z.number().int(),
      auditEntries: z.number().int(),
      files: z
        .number()
        .int()
        .openapi({ description: "The team's files, deleted ones still restorable included" }),
      filesPending: z.boolean().openapi({
        description: "Some of their objects are left to the hourly cron (many, or R2 failed meanwhile)",
      }),
      todos: z.number().int().openapi({ description: "Its todos, those in the trash included" }),
    }),
  })
  .openapi("DeletedOrg", { description: "What the delete erased, by kind." });

export const TransferBody = z
  .object({ userId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) })
  .strict()
  .openapi("TransferOrgBody");

export const MemberSchema = z
  .object({
    userId: z.number().int(),
    username: z.string(),
    name: z.string(),
    role: OrgRoleSchema,
    joinedAt: z.string(),
  })
  .openapi("OrgMember");

export const MemberPageSchema = z
  .object({ items: z.array(MemberSchema), nextCursor: z.string().nullable() })
  .openapi("OrgMemberPage");

export const SetRoleBody = z.object({ role: GrantableRoleSchema }).strict().openapi("SetOrgRoleBody");

export const RemovedMemberSchema = z
  .object({ userId: z.number().int(), left: z.boolean() })
  .openapi("RemovedOrgMember", { description: "`left`: you removed yourself." });
