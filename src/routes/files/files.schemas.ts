import { z } from "@hono/zod-openapi";
import type { SchemaObject } from "openapi3-ts/oas31";
import { filesTable, VISIBILITIES } from "../../db/files-schema";
import { createSelectSchema } from "../../db/zod";
import { DIRECTORY_PATTERN, MAX_KEY_BYTES } from "../../files/file-keys";
import { CursorQuery } from "../../core/paging";
import { orgIdDescription, orgIdQuery } from "../../orgs/org-id-field";

/** `?orgId=`: a team's files rather than your own. */
export const OrgIdQuery = orgIdQuery("Its files instead of your own (every role reads them).");

export const UploadResultSchema = z
  .object({
    key: z.string().openapi({ example: "reports/3f0c2a9e-8d7b-4c1e-9a55-6b2f7d1e0c44-q3.pdf" }),
    etag: z.string().openapi({ example: "0a3f5c1d9e8b7a6f5e4d3c2b1a098765" }),
    size: z.number().int().openapi({ example: 48213 }),
    contentType: z.string().openapi({ example: "application/pdf" }),
  })
  .openapi("UploadResult");

/** Documented as JSON Schema, not zod: a zod body would make the validator buffer the whole form. */
export const UploadFormSchema: SchemaObject = {
  type: "object",
  required: ["file"],
  properties: {
    // A string of binary content, as OpenAPI 3.1 describes a file part: one part, not an array of them.
    file: {
      type: "string",
      format: "binary",
      contentMediaType: "application/octet-stream",
      description:
        "The file (exactly one `file` part). Its filename becomes part of the key (`/`, `\\` and control " +
        "characters replaced, shortened so the key stays within 1,024 UTF-8 bytes, `file` when empty) and is kept exactly as `originalName` (at most 1,024 UTF-8 bytes).",
    },
    directory: {
      type: "string",
      pattern: DIRECTORY_PATTERN,
      maxLength: 256,
      description:
        "Optional key prefix: segments of `[A-Za-z0-9._-]`, no `.` or `..` segment; empty means none. Before " +
        "or after `file`.",
      example: "reports/2026",
    },
    visibility: {
      type: "string",
      enum: [...VISIBILITIES],
      description:
        "`public` (default): anyone with the key downloads it. `private`: only you, with your bearer token, " +
        "or whoever holds a share link. Before or after `file` (after it, a file over 8 MiB is copied once). " +
        "A team's files are private to the team: `public` with `orgId` is 400.",
    },
    orgId: {
      type: "integer",
      minimum: 1,
      description: orgIdDescription(
        "Upload for this team (members and up; viewers 403): the file is the team's, private to its members, and " +
          "counts against its quota. Before `file` (after it, 400 `orgId must come before file (or be sent as " +
          "?orgId=)`), or as the `?orgId=` query parameter; one other than the query's is 400 `Invalid orgId`.",
      ),
      example: 7,
    },
  },
};

export const UploadQuery = z.object({ orgId: OrgIdQuery });

/** A stored object's key as one path segment. */
export const FileKeyParams = z.object({
  key: z
    .string()
    .min(1)
    .openapi({
      param: { name: "key", in: "path" },
      description: `The full object key, URL-encoded as one path segment (\`/\` as \`%2F\`). At most ${MAX_KEY_BYTES} UTF-8 bytes.`,
      example: "reports%2F3f0c2a9e-8d7b-4c1e-9a55-6b2f7d1e0c44-q3.pdf",
    }),
});

export const VisibilitySchema = z.enum(VISIBILITIES).openapi({
  description:
    "`public`: anyone with the key downloads it. `private`: its owner (bearer token) or a share link.",
});

export const FileRecordSchema = createSelectSchema(filesTable, {
  visibility: VisibilitySchema,
  orgId: (schema) => schema.openapi({ description: "The team the file belongs to; null: your own" }),
})
  .omit({ id: true, userId: true })
  .openapi("FileRecord");

export const StorageUsageSchema = z
  .object({
    bytes: z.number().int().openapi({ description: "Bytes of your (or the team's) recorded files" }),
    files: z.number().int(),
    reservedBytes: z
      .number()
      .int()
      .openapi({ description: "Bytes held by uploads in progress (yours, or the team's)" }),
    quotaBytes: z.number().int().openapi({
      description: "The limit: STORAGE_QUOTA_BYTES for your own files, ORG_STORAGE_QUOTA_BYTES for a team's",
    }),
  })
  .openapi("StorageUsage");

export const FilePageSchema = z
  .object({
    items: z.array(FileRecordSchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: "Pass as `cursor` for the next page; null at the end." }),
    usage: StorageUsageSchema,
  })
  .openapi("FilePage");

export const FileListQuery = CursorQuery.extend({ orgId: OrgIdQuery });

export const DeleteFileQuery = z.object({
  detach: z
    .enum(["true", "false"])
    .optional()
    .transform((value) => value === "true")
    .openapi({
      param: { name: "detach", in: "query" },
      description: "`true`: also remove the file from every todo it is attached to (otherwise 409).",
    }),
});

export const DeletedFileSchema = z
  .object({
    key: z.string(),
    detached: z.number().int().openapi({ description: "Todos the file was removed from" }),
    restorableUntil: z
      .string()
      .openapi({ description: "When its restore window (RESTORE_WINDOW_SECONDS) ends" }),
  })
  .openapi("DeletedFile");
