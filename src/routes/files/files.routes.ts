import { createRoute } from "@hono/zod-openapi";
import { keyAccess } from "../../http/route-access";
import type { HeadersObject, MediaTypeObject } from "openapi3-ts/oas31";
import { errorResponses, okContent, PUBLIC } from "../../http/openapi-helpers";
import {
  DownloadHeadersSchema,
  DownloadParamsSchema,
  UploadFormSchema,
  UploadResultSchema,
} from "./files.schemas";

export const upload = createRoute({
  operationId: "upload",
  ...keyAccess("files:write"),
  method: "post",
  path: "/api/upload",
  tags: ["Files"],
  summary: "Upload a file to R2",
  description:
    "Streams the multipart body into R2 without buffering the file: files under 8 MiB are stored with one put, " +
    "larger ones with an R2 multipart upload that is aborted on any failure. `directory` and `file` may come in " +
    "either order. Filenames may be raw UTF-8 or RFC 8187 `filename*`. The size limit is `MAX_UPLOAD_BYTES` " +
    "(90 MiB by default, under Cloudflare's 100 MB body cap; larger files go through `POST /api/uploads`). The key is `[<directory>/]<uuid>-<filename>`; use it as `attachments[].fileKey`.",
  request: {
    body: { content: { "multipart/form-data": { schema: UploadFormSchema } }, required: true },
  },
  responses: {
    201: okContent(UploadResultSchema, "Stored; `key` downloads the file"),
    ...errorResponses(400, 401, 403, 413, 500, 503),
  },
});

const BINARY: MediaTypeObject = { schema: { type: "string", format: "binary" } };

const DOWNLOAD_HEADERS: HeadersObject = {
  "Content-Disposition": {
    description: "`attachment; filename=\"<ascii>\"; filename*=UTF-8''<original name>`",
    schema: { type: "string" },
  },
  ETag: { description: "The object's HTTP ETag (quoted)", schema: { type: "string" } },
  "Content-Length": { schema: { type: "integer" } },
  "Accept-Ranges": { schema: { type: "string", enum: ["bytes"] } },
  "X-Content-Type-Options": { schema: { type: "string", enum: ["nosniff"] } },
};

export const download = createRoute({
  operationId: "download",
  method: "get",
  path: "/api/download/{key}",
  tags: ["Files"],
  summary: "Download a file by key (public; HEAD too)",
  description:
    "Streams the object from R2. Public: the unguessable key is the capability. Supports one `Range` and " +
    "`If-None-Match`; `HEAD` answers the same headers without a body.",
  ...PUBLIC,
  request: { params: DownloadParamsSchema, headers: DownloadHeadersSchema },
  responses: {
    200: {
      description:
        "The whole object, as the `Content-Type` it was uploaded with (`application/octet-stream` when it had none)",
      headers: DOWNLOAD_HEADERS,
      content: { "*/*": BINARY },
    },
    206: {
      description: "The requested byte range",
      headers: {
        ...DOWNLOAD_HEADERS,
        "Content-Range": { description: "`bytes <first>-<last>/<size>`", schema: { type: "string" } },
      },
      content: { "*/*": BINARY },
    },
    304: {
      description: "`If-None-Match` matched the current ETag; empty body",
      headers: { ETag: DOWNLOAD_HEADERS.ETag! },
    },
    ...errorResponses(404, 503),
    416: {
      ...errorResponses(416)[416],
      description: "The range starts beyond the end of the object",
      headers: { "Content-Range": { description: "`bytes */<size>`", schema: { type: "string" } } },
    },
  },
});

/** Hono answers HEAD with the GET handler (the body dropped); this documents it. */
export const downloadHead = createRoute({
  operationId: "downloadHead",
  method: "head",
  path: "/api/download/{key}",
  tags: ["Files"],
  summary: "Read a file's headers by key (public)",
  description: "The download's headers (size, type, ETag, Content-Disposition) without the body.",
  ...PUBLIC,
  request: { params: DownloadParamsSchema, headers: DownloadHeadersSchema },
  responses: {
    200: { description: "The object exists; its headers, no body", headers: DOWNLOAD_HEADERS },
    206: { description: "The requested range exists; its headers, no body", headers: DOWNLOAD_HEADERS },
    304: {
      description: "`If-None-Match` matched the current ETag",
      headers: { ETag: DOWNLOAD_HEADERS.ETag! },
    },
    404: { description: "No object under this key" },
    416: { description: "The range starts beyond the end of the object" },
    503: { description: "R2 did not answer" },
  },
});

export type UploadRoute = typeof upload;
export type DownloadRoute = typeof download;
