import { z } from "@hono/zod-openapi";
import { SECRET_PATTERN } from "../../auth/opaque-tokens";
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

/** A secret we issued: 43 base64url characters (a malformed one is a 400, an unknown one a 401 or 400). */
export const OpaqueSecretSchema = z
  .string()
  .regex(SECRET_PATTERN, "Must be the 43-character value the service issued")
  .openapi({ example: "m2Qv1v8Yq0mJQ0Wl3a9X8y7Zr6Tt5Uu4Vv3Ww2Xx1Yy" });

export const LoginResultSchema = z
  .object({
    userId: z.number().int().openapi({ example: 1 }),
    username: z.string().openapi({ example: "ada.lovelace" }),
    token: z.string().openapi({
      description: "HS256 JWT, valid for 1 hour. Send it as `Authorization: Bearer <token>`.",
    }),
    expiresAt: z.string().openapi({
      description: "When `token` expires (ISO 8601): refresh before then.",
      example: "2026-11-23T11:00:00.000Z",
    }),
    refreshToken: OpaqueSecretSchema.openapi({
      description:
        "Opaque, one use: `POST /api/auth/refresh` answers a new token and a new refresh token. " +
        "Keep it out of logs and URLs.",
    }),
  })
  .openapi("LoginResult");

export const RefreshBody = z.object({ refreshToken: OpaqueSecretSchema }).strict().openapi("RefreshBody");

export const LoggedOutSchema = z.object({ sessionId: z.string() }).openapi("LoggedOut");
