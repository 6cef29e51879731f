import { z } from "@hono/zod-openapi";
import { API_KEY_SCOPES } from "../../db/credentials-schema";
import { ROLES, usersTable } from "../../db/schema";
import { createInsertSchema, createSelectSchema } from "../../db/zod";
import { pageSchema } from "../../core/paging";

const USERNAME_CHARS = /^[A-Za-z0-9_.-]+$/;
const NOTHING_TO_UPDATE = "Nothing to update";
export const CURRENT_PASSWORD_REQUIRED = "currentPassword is required to change your password";
export const CURRENT_PASSWORD_FOR_EMAIL = "currentPassword is required to change your e-mail address";

/** Trimmed, NFKC-normalized, then 3..32 of `A-Z a-z 0-9 _ . -`; unique ignoring case. */
export const UsernameSchema = z
  .string()
  .trim()
  .normalize("NFKC")
  .min(3)
  .max(32)
  .regex(USERNAME_CHARS, "Only letters, digits, '_', '.' and '-'")
  .openapi({
    description:
      "Trimmed and NFKC-normalized, then 3 to 32 characters of A-Z, a-z, 0-9, `_`, `.`, `-`. " +
      "Unique ignoring case (so `Admin` and full-width `ａｄｍｉｎ` collide with `admin`).",
    example: "ada.lovelace",
  });

/** 8..256 characters, used whole (never truncated). */
export const PasswordSchema = z.string().min(8).max(256).openapi({
  description: "8 to 256 characters; every character counts.",
  example: "correct horse battery staple",
});

export const EmailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email()).openapi({
  format: "email",
  // What z.email() accepts, so the document says exactly which addresses are taken.
  pattern: z.regexes.email.source,
  description: "Stored lower-cased; unique.",
  example: "ada@example.com",
});

export const NameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/\S/, "Must not be blank")
  .openapi({ example: "Ada Lovelace" });
export const AgeSchema = z.number().int().min(0).max(150).openapi({ example: 36 });
export const RoleSchema = z.enum(ROLES).openapi({ description: "`admin` may manage every user." });

/** Full profile: for oneself and for admins. */
export const UserSchema = createSelectSchema(usersTable, {
  role: RoleSchema,
  pendingEmail: (column) =>
    column.openapi({
      description:
        "An address asked for (`POST /api/users/{id}` with `email`) and not yet confirmed: it replaces " +
        "`email` when the link e-mailed to it is used. null: none.",
    }),
})
  .omit({ usernameKey: true, tokenVersion: true, grantVersion: true, emailVerifiedAt: true })
  .extend({
    emailVerified: z.boolean().openapi({
      description:
        "true once a link e-mailed to `email` was used: the verification link sent at registration, a " +
        "password-reset link or an e-mail change link.",
    }),
  })
  .openapi("User");

/** What any signed-in user may see of another user. */
export const PublicUserSchema = UserSchema.pick({
  id: true,
  username: true,
  name: true,
  createdAt: true,
}).openapi("PublicUser");

/** Profile fields a client may send; the server sets id, usernameKey, role and timestamps. */
export const ProfileFieldsSchema = createInsertSchema(usersTable, {
  username: UsernameSchema,
  name: NameSchema,
  email: EmailSchema,
  age: AgeSchema,
})
  .pick({ username: true, name: true, email: true })
  .extend({ age: AgeSchema.optional() });

/** Full profile for oneself and admins, public fields for everyone else. */
export const UserViewSchema = z.union([UserSchema, PublicUserSchema]).openapi("UserView");

export const UserPageSchema = pageSchema(UserViewSchema).openapi("UserPage");

export const CreateUserBody = ProfileFieldsSchema.extend({
  password: PasswordSchema,
  // Optional rather than .default(): D1's column default applies (see CreateTodoBody).
  role: RoleSchema.optional().openapi({ description: "Omitted: `user`." }),
})
  .strict()
  .openapi("CreateUserBody");

// JSON Schema 2020-12, which zod-openapi's metadata type does not list: the server refuses
// currentPassword without a new password or e-mail address.
const CURRENT_PASSWORD_NEEDS_A_CHANGE = {
  dependentSchemas: { currentPassword: { anyOf: [{ required: ["password"] }, { required: ["email"] }] } },
};

export const UpdateUserBody = ProfileFieldsSchema.partial()
  .extend({
    age: AgeSchema.nullable().optional().openapi({ description: "`null` clears it." }),
    role: RoleSchema.optional().openapi({ description: "Admins only." }),
    password: PasswordSchema.optional(),
    currentPassword: z
      .string()
      .max(256)
      .optional()
      .openapi({
        description:
          "Your password, required when you change your own `password` or `email` (400 " +
          `"${CURRENT_PASSWORD_REQUIRED}" or "${CURRENT_PASSWORD_FOR_EMAIL}"; 403 when wrong). ` +
          "Only with `password` or `email`.",
      }),
  })
  .strict()
  .refine((body) => Object.keys(body).some((field) => field !== "currentPassword"), {
    message: NOTHING_TO_UPDATE,
  })
  .openapi("UpdateUserBody", {
    minProperties: 1,
    ...CURRENT_PASSWORD_NEEDS_A_CHANGE,
    description: `At least one field; \`currentPassword\` alone is 400 "${NOTHING_TO_UPDATE}".`,
  });

export const CredentialSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("session"), sessionId: z.string() }),
    z.object({ kind: z.literal("token") }),
    z.object({
      kind: z.literal("api_key"),
      keyId: z.number().int(),
      scopes: z.array(z.enum(API_KEY_SCOPES)),
    }),
  ])
  .openapi("Credential", {
    description:
      "What the request authenticated with: a sign-in session, a token from before sessions, or an API key.",
  });

export const MeSchema = z.object({ user: UserSchema, credential: CredentialSchema }).openapi("Me");

export const DeletedUserSchema = z
  .object({
    id: z.number().int(),
    erasure: z
      .object({
        objects: z.number().int().openapi({ description: "Their stored objects and unfinished uploads" }),
        pending: z.boolean().openapi({
          description: "true: more than 100, or storage did not answer; the hourly cron erases the rest",
        }),
        agents: z
          .object({
            instances: z.number().int().openapi({
              description:
                "Agent instances holding their data: each chat of their index, `user-<id>`, the todo feed",
            }),
            pending: z.boolean().openapi({
              description: "true: more than 20, or a wipe failed; the hourly cron wipes the rest",
            }),
          })
          .openapi({ description: "What became of their chats and todo feed: wiped now, or queued" }),
      })
      .openapi({ description: "What became of the user's files and agents: erased now, or queued" }),
  })
  .openapi("DeletedUser");
