import { z } from "@hono/zod-openapi";
import { PasswordSchema, ProfileFieldsSchema, UsernameSchema } from "../users/users.schemas";

export const RegisterBody = ProfileFieldsSchema.extend({ password: PasswordSchema })
  .strict()
  .openapi("RegisterBody");

export const LoginBody = z
  .object({
    username: UsernameSchema,
    // Bounded like registration; a longer value can never match, so it is a 400, not a PBKDF2 run.
    password: PasswordSchema,
  })
  .strict()
  .openapi("LoginBody");

export const LoginResultSchema = z
  .object({
    userId: z.number().int().openapi({ example: 1 }),
    username: z.string().openapi({ example: "ada.lovelace" }),
    token: z.string().openapi({
      description: "HS256 JWT, valid for 1 hour. Send it as `Authorization: Bearer <token>`.",
    }),
  })
  .openapi("LoginResult");
