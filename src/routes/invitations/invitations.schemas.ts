import { z } from "@hono/zod-openapi";
import { INVITATION_STATUSES } from "../../db/orgs-schema";
import { idParam } from "../../core/paging";
import { SECRET_PATTERN } from "../../auth/opaque-tokens";
import { EmailSchema } from "../users/users.schemas";
import { GrantableRoleSchema, OrgIdParams } from "../orgs/orgs.schemas";

export const InvitationParams = OrgIdParams.extend({ id: idParam("id") });

export const InvitationSchema = z
  .object({
    id: z.number().int(),
    orgId: z.number().int(),
    email: z.string(),
    role: GrantableRoleSchema,
    status: z.enum(INVITATION_STATUSES).openapi({
      description: "`expired`: pending past `expiresAt`, which can no longer be accepted and blocks nothing.",
    }),
    expiresAt: z.string(),
    createdAt: z.string(),
    respondedAt: z.string().nullable(),
  })
  .openapi("OrgInvitation", { description: "An invitation as the team sees it: never its token." });

export const InvitationPageSchema = z
  .object({ items: z.array(InvitationSchema), nextCursor: z.string().nullable() })
  .openapi("OrgInvitationPage");

export const CreateInvitationBody = z
  .object({ email: EmailSchema, role: GrantableRoleSchema.default("member") })
  .strict()
  .openapi("CreateOrgInvitationBody");

export const MyInvitationSchema = z
  .object({
    id: z.number().int(),
    orgId: z.number().int(),
    orgName: z.string(),
    role: GrantableRoleSchema,
    invitedBy: z.string().nullable(),
    expiresAt: z.string(),
    createdAt: z.string(),
  })
  .openapi("MyInvitation", { description: "A pending invitation to your address." });

export const MyInvitationListSchema = z
  .object({ items: z.array(MyInvitationSchema), nextCursor: z.null() })
  .openapi("MyInvitationList");

export const AcceptInvitationBody = z
  .object({
    token: z.string().regex(SECRET_PATTERN, "Invalid token").openapi({
      description: "The `token=` of the invitation e-mail's link.",
      example: "Jw0q8Ea1m3ZKp5Rl7Vt9Xb2Nd4Hf6Lj8Pn0Sr2Uv4Wx",
    }),
  })
  .strict()
  .openapi("AcceptOrgInvitationBody");

export const InvitationIdParams = z.object({ id: idParam("id") });
