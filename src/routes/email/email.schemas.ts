import { z } from "@hono/zod-openapi";
import { OpaqueSecretSchema } from "../auth/auth.schemas";

export const EmailConfirmBody = z
  .object({ token: OpaqueSecretSchema.openapi({ description: "The `token` of the link in the e-mail." }) })
  .strict()
  .openapi("EmailConfirmBody");

export const EmailConfirmedSchema = z
  .object({
    userId: z.number().int(),
    email: z
      .string()
      .openapi({ description: "The account's address, now verified.", example: "ada@example.com" }),
    changed: z.boolean().openapi({
      description:
        "true: the link was an e-mail change's, and the account moved to `email`; false: a verification.",
    }),
  })
  .openapi("EmailConfirmed");

export const VerificationSentSchema = z
  .object({ email: z.string().openapi({ description: "Where the link went: the account's address." }) })
  .openapi("VerificationSent");
