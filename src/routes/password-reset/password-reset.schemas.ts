import { z } from "@hono/zod-openapi";
import { EmailSchema, PasswordSchema } from "../users/users.schemas";
import { OpaqueSecretSchema } from "../auth/auth.schemas";

export const ResetRequestBody = z.object({ email: EmailSchema }).strict().openapi("PasswordResetRequestBody");

export const ResetRequestedSchema = z
  .object({
    message: z.string().openapi({
      example: "If an account uses this e-mail address, a reset link is on its way.",
    }),
  })
  .openapi("PasswordResetRequested");

export const ResetConfirmBody = z
  .object({
    token: OpaqueSecretSchema.openapi({ description: "The `token` of the link in the e-mail." }),
    password: PasswordSchema,
  })
  .strict()
  .openapi("PasswordResetConfirmBody");

export const ResetDoneSchema = z
  .object({
    userId: z.number().int(),
    username: z.string(),
    ended: z
      .object({
        sessions: z.number().int().openapi({ description: "Sessions ended: every device is signed out." }),
        apiKeys: z.number().int().openapi({ description: "API keys revoked (those still usable)." }),
        passkeys: z
          .number()
          .int()
          .openapi({ description: "Passkeys deleted: an intruder's may be among them." }),
        oauthGrants: z.number().int().nullable().openapi({
          description:
            "Connected apps (OAuth grants) disconnected; null when they could not be counted, though every one ended.",
        }),
      })
      .openapi({
        description: "What the recovery ended; the account's e-mail address gets the same summary.",
      }),
  })
  .openapi("PasswordResetDone");
