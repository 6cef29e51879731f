import { z } from "@hono/zod-openapi";
import type { SchemaObject } from "openapi3-ts/oas31";
import { MAX_KEY_BYTES } from "../../files/file-keys";

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
    // No `type`: generators then accept a Blob or File for it (`string` would force a cast).
    file: {
      format: "binary",
      contentMediaType: "application/octet-stream",
      description:
        "The file (exactly one `file` part). Its filename becomes part of the key (`/`, `\\` and control " +
        "characters replaced, shortened so the key stays within 1,024 UTF-8 bytes, `file` when empty) and is kept exactly as `originalName` (at most 1,024 UTF-8 bytes).",
    },
    directory: {
      type: "string",
      pattern: "^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$",
      maxLength: 256,
      description:
        "Optional key prefix: segments of `[A-Za-z0-9._-]`, no `.` or `..` segment. Before or after `file`.",
      example: "reports/2026",
    },
  },
};

export const DownloadParamsSchema = z.object({
  key: z
    .string()
    .min(1)
    .openapi({
      param: { name: "key", in: "path" },
      description: `The full object key, URL-encoded as one path segment (\`/\` as \`%2F\`). At most ${MAX_KEY_BYTES} UTF-8 bytes.`,
      example: "reports%2F3f0c2a9e-8d7b-4c1e-9a55-6b2f7d1e0c44-q3.pdf",
    }),
});

export const DownloadHeadersSchema = z.object({
  range: z.string().optional().openapi({
    description:
      "One byte range, e.g. `bytes=0-1023`, `bytes=1024-` or `bytes=-500`. Several ranges or a malformed value are ignored (200 with the whole object).",
    example: "bytes=0-1023",
  }),
  "if-none-match": z.string().optional().openapi({
    description:
      "An ETag from an earlier download (`*` and weak `W/` tags are accepted): 304 when it still matches.",
  }),
});
