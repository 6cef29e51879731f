import { z } from "@hono/zod-openapi";
import { fileLinksTable } from "../../db/files-schema";
import { createSelectSchema } from "../../db/zod";
import { MAX_LINK_DOWNLOADS, MAX_LINK_TTL_SECONDS, MIN_LINK_TTL_SECONDS } from "../../files/file-links";
import { FileKeyParams } from "../files/files.schemas";

export const CreateLinkBody = z
  .strictObject({
    expiresIn: z
      .number()
      .int()
      .min(MIN_LINK_TTL_SECONDS)
      .max(MAX_LINK_TTL_SECONDS)
      .openapi({
        description: `Seconds the link works, ${MIN_LINK_TTL_SECONDS} to ${MAX_LINK_TTL_SECONDS} (30 days).`,
        example: 86400,
      }),
    maxDownloads: z
      .number()
      .int()
      .min(1)
      .max(MAX_LINK_DOWNLOADS)
      .optional()
      .openapi({ description: "Downloads allowed through the link; unlimited when omitted.", example: 5 }),
  })
  .openapi("CreateFileLinkBody");

export const FileLinkSchema = createSelectSchema(fileLinksTable)
  .omit({ fileId: true })
  .extend({
    url: z.url().openapi({ description: "The public download URL (`GET /api/links/{token}`): share this." }),
    state: z.enum(["active", "expired", "used_up", "revoked"]),
  })
  .openapi("FileLink");

export const FileLinkListSchema = z
  .object({ items: z.array(FileLinkSchema).openapi({ description: "Newest first, at most 100" }) })
  .openapi("FileLinkList");

export const LinkParams = FileKeyParams.extend({
  linkId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{22}$/, "Must be a link id")
    .openapi({ param: { name: "linkId", in: "path" }, example: "Q2xhdWRlIHdhcyBoZXJlIQ" }),
});
