import { z } from "@hono/zod-openapi";
import { API_KEY_SCOPES, apiKeysTable } from "../../db/credentials-schema";
import { createSelectSchema } from "../../db/zod";
import { pageSchema } from "../../core/paging";

export const WRITE_KEY_NEEDS_PASSWORD = "currentPassword is required for a key with a write scope";

/** The longest an expiring key may live; omit `expiresAt` for a key that never expires. */
export const MAX_KEY_DAYS = 366;

export const ScopeSchema = z.enum(API_KEY_SCOPES).openapi("ApiKeyScope", {
  description:
    "`todos:read` and `todos:write`: the todo routes and `/mcp` tools; `files:read`: your files, private " +
    "downloads and `/mcp` resources; `files:write`: uploads; `agents:connect`: connect tickets, nothing else " +
    "(a chat's also needs both todo scopes and `files:read`, as its tools read and write todos and it reads " +
    "your files); `chats:read`: your chat list, one chat's title and preview, and your model usage by chat; " +
    "`chats:write`: start and rename chats (deleting needs a sign-in).",
});

export const ApiKeySchema = createSelectSchema(apiKeysTable, { scopes: z.array(ScopeSchema) })
  .omit({ userId: true, keyHash: true })
  .openapi("ApiKey", {
    description: "A key as listed: never the secret, only its last four characters.",
  });

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({
    description:
      "The secret, shown this once: send it as `Authorization: Bearer <key>`. It starts with `wsk_`, so " +
      "secret scanners can find it if it leaks.",
    example: "wsk_Jw0q8Ea1m3ZKp5Rl7Vt9Xb2Nd4Hf6Lj8Pn0Sr2Uv4W",
  }),
}).openapi("CreatedApiKey");

const EXPIRY_RANGE = `Must be in the future, at most ${MAX_KEY_DAYS} days ahead`;

const isFutureWithin = (iso: string) => {
  const at = Date.parse(iso);
  const now = Date.now();
  return at > now && at <= now + MAX_KEY_DAYS * 24 * 3600 * 1000;
};

export const CreateApiKeyBody = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/\S/, "Must not be blank")
      .openapi({ example: "nightly backup script" }),
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .max(API_KEY_SCOPES.length)
      .openapi({ example: ["todos:read"] }),
    expiresAt: z.iso
      .datetime({ offset: true })
      .refine(isFutureWithin, EXPIRY_RANGE)
      .transform((iso) => new Date(iso).toISOString())
      .optional()
      .openapi({
        description: `${EXPIRY_RANGE} (400 otherwise). Omitted: the key never expires.`,
        example: "2027-01-31T00:00:00Z",
      }),
    currentPassword: z
      .string()
      .max(256)
      .optional()
      .openapi({
        description:
          `Your password, required for a key with a \`:write\` scope (400 "${WRITE_KEY_NEEDS_PASSWORD}"; 403 ` +
          "when wrong): a stolen session alone cannot mint a lasting key that changes your data.",
      }),
  })
  .strict()
  .openapi("CreateApiKeyBody");

/** Scopes that change data: a key with one outlives the session that made it, so it takes the password. */
export const writesData = (scopes: readonly string[]) => scopes.some((scope) => scope.endsWith(":write"));

export const ApiKeyPageSchema = pageSchema(ApiKeySchema).openapi("ApiKeyPage");
