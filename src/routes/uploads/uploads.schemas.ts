import { z } from "@hono/zod-openapi";
import {
  DIRECTORY_PATTERN,
  isValidDirectory,
  MAX_DIRECTORY_LENGTH,
  MAX_ORIGINAL_NAME_BYTES,
  utf8Length,
} from "../../files/file-keys";
import { MAX_PARTS, MAX_RESUMABLE_BYTES } from "../../files/resumable-parts";
import { VisibilitySchema } from "../files/files.schemas";
import { orgIdField } from "../../orgs/org-id-field";

// type/subtype with optional parameters; what a browser puts in File.type.
const CONTENT_TYPE = /^[\w.+-]+\/[\w.+-]+(?:\s*;\s*[\w.+-]+=(?:[\w.+-]+|"[^"\\\r\n]*"))*$/;

export const CreateUploadBody = z
  .strictObject({
    fileName: z
      .string()
      .refine((name) => utf8Length(name) <= MAX_ORIGINAL_NAME_BYTES, {
        message: `At most ${MAX_ORIGINAL_NAME_BYTES} UTF-8 bytes`,
      })
      .openapi({
        description:
          "The original filename: kept exactly as `originalName`; its sanitized form becomes part of the key (`file` when empty).",
        example: "holiday.mp4",
      }),
    contentType: z
      .string()
      .max(255)
      .regex(CONTENT_TYPE, "Must be a media type such as video/mp4")
      .optional()
      .openapi({
        description: "Stored content type; `application/octet-stream` when omitted.",
        example: "video/mp4",
      }),
    directory: z
      .string()
      .max(MAX_DIRECTORY_LENGTH)
      .refine((dir) => dir === "" || isValidDirectory(dir), { message: "Invalid directory" })
      .optional()
      .openapi({
        pattern: DIRECTORY_PATTERN,
        description: "Optional key prefix, as for `POST /api/upload`; empty means none.",
        example: "videos/2026",
      }),
    size: z
      .number()
      .int()
      .min(1)
      .max(MAX_RESUMABLE_BYTES)
      .optional()
      .openapi({
        description:
          "Total bytes, if known: then every part's size is checked on arrival, the part size grows for files over " +
          "about 48 GiB, and your storage quota is checked now (413) rather than part by part.",
        example: 734003200,
      }),
    visibility: VisibilitySchema.optional().openapi({
      description:
        "`public` when omitted. A team's files are private to the team: `public` with `orgId` is 400.",
    }),
    orgId: orgIdField(
      "Upload for this team (members and up; viewers 403): the file is the team's, private to its members, and " +
        "its bytes count against the team's quota (`ORG_STORAGE_QUOTA_BYTES`), not yours.",
    ),
  })
  .openapi("CreateUploadBody");

export const UploadSessionSchema = z
  .object({
    uploadId: z.uuid(),
    key: z.string().openapi({ example: "videos/2026/3f0c2a9e-8d7b-4c1e-9a55-6b2f7d1e0c44-holiday.mp4" }),
    partSize: z.number().int().openapi({
      description: "Bytes per part; every part but the last must be exactly this size.",
      example: 5242880,
    }),
    expiresAt: z.iso.datetime().openapi({ description: "Unfinished uploads are aborted after this time." }),
  })
  .openapi("UploadSession");

export const UploadIdParams = z.object({
  uploadId: z.uuid().openapi({ param: { name: "uploadId", in: "path" }, pattern: z.regexes.uuid().source }),
});

export const PartParams = UploadIdParams.extend({
  partNumber: z
    .string()
    .regex(/^[1-9][0-9]{0,4}$/, `Must be an integer from 1 to ${MAX_PARTS}`)
    .transform(Number)
    .refine((n) => n <= MAX_PARTS, `Must be an integer from 1 to ${MAX_PARTS}`)
    .openapi({
      param: { name: "partNumber", in: "path" },
      type: "integer",
      minimum: 1,
      maximum: MAX_PARTS,
      description:
        `From 1 to ${MAX_PARTS}; for an upload opened with its \`size\`, at most its part count ` +
        "(`ceil(size / partSize)`): a higher number is 400.",
    }),
});

export const PartResultSchema = z
  .object({ partNumber: z.number().int(), etag: z.string() })
  .openapi("UploadedPart");

export const AbortedUploadSchema = z.object({ uploadId: z.uuid() }).openapi("AbortedUpload");
