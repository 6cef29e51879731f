import { z } from "@hono/zod-openapi";
import { OAUTH_SCOPES } from "../../auth/oauth/oauth-resource";

export const OAuthGrantSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    clientName: z.string().openapi({ description: "As the app registered itself: not verified." }),
    redirectHost: z
      .string()
      .nullable()
      .openapi({ description: "Where the app receives its tokens (the host of its redirect URI)." }),
    scopes: z.array(z.enum(OAUTH_SCOPES)),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable().openapi({
      description: "The grant ends then, 30 days after consent, however often the app refreshes.",
    }),
  })
  .openapi("OAuthGrant", {
    description: "An AI client (an MCP client) you allowed, through OAuth, to use /mcp as you.",
  });

export const OAuthGrantListSchema = z.object({ items: z.array(OAuthGrantSchema) }).openapi("OAuthGrantList");

export const GrantIdParams = z.object({
  id: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .openapi({ param: { name: "id", in: "path" }, example: "gXb1rQmW9ZkTt2Ls" }),
});
