import { z } from "@hono/zod-openapi";
import { sessionsTable } from "../../db/credentials-schema";
import { createSelectSchema } from "../../db/zod";

export const SessionSchema = createSelectSchema(sessionsTable)
  .omit({ userId: true })
  .extend({
    current: z.boolean().openapi({ description: "The session of the token this list was asked with." }),
  })
  .openapi("Session", {
    description:
      "A sign-in. `lastUsedAt` is the sign-in or the last refresh; the session ends at `expiresAt`, or " +
      "7 days after `lastUsedAt`, whichever comes first.",
  });

export const SessionListSchema = z.object({ items: z.array(SessionSchema) }).openapi("SessionList");

export const SessionIdParams = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "9b2f4c1e-0d3a-4f5b-8c6d-7e8f9a0b1c2d" }),
});

export const RevokedSessionSchema = z.object({ id: z.string() }).openapi("RevokedSession");
