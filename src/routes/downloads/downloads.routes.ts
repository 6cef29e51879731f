import { createRoute } from "@hono/zod-openapi";
import type { HeadersObject, MediaTypeObject } from "openapi3-ts/oas31";
import { errorResponses, PUBLIC } from "../../http/openapi-helpers";
import { FileKeyParams } from "../files/files.schemas";
import { DownloadHeadersSchema, LinkTokenParams } from "./downloads.schemas";

const tags = ["Files"];

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
  tags,
  summary: "Download a file by key (public; HEAD too)",
  description:
    "Streams the object from R2. Public: the unguessable key is the capability. A private upload " +
    "(`visibility=private`) downloads only with its owner's bearer token (or through a share link): anyone " +
    "else gets 404. Supports one `Range` and `If-None-Match`; `HEAD` answers the same headers without a body.",
  ...PUBLIC,
  request: { params: FileKeyParams, headers: DownloadHeadersSchema },
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
  tags,
  summary: "Read a file's headers by key (public)",
  description: "The download's headers (size, type, ETag, Content-Disposition) without the body.",
  ...PUBLIC,
  request: { params: FileKeyParams, headers: DownloadHeadersSchema },
  responses: {
    200: { description: "The object exists; its headers, no body", headers: DOWNLOAD_HEADERS },
    206: { description: "The requested range exists; its headers, no body", headers: DOWNLOAD_HEADERS },
    304: {
      description: "`If-None-Match` matched the current ETag",
      headers: { ETag: DOWNLOAD_HEADERS.ETag! },
    },
    404: { description: "No object under this key (or a private one, and the token is not its owner's)" },
    416: { description: "The range starts beyond the end of the object" },
    503: { description: "R2 did not answer" },
  },
});

export const downloadByLink = createRoute({
  operationId: "downloadByLink",
  method: "get",
  path: "/api/links/{token}",
  tags: ["Share links"],
  summary: "Download a file through a share link (public; HEAD too)",
  description:
    "The URL `POST /api/files/{key}/links` answers. Each GET counts one download, atomically, so parallel " +
    "downloads never exceed `maxDownloads`; `HEAD` checks the link without counting. Works for private files. " +
    "Headers, `Range` and `If-None-Match` as for `GET /api/download/{key}`, plus `Cache-Control: no-store`.",
  ...PUBLIC,
  request: { params: LinkTokenParams, headers: DownloadHeadersSchema },
  responses: {
    200: {
      description: "The whole file",
      headers: { ...DOWNLOAD_HEADERS, "Cache-Control": { schema: { type: "string", enum: ["no-store"] } } },
      content: { "*/*": BINARY },
    },
    206: { description: "The requested byte range", headers: DOWNLOAD_HEADERS, content: { "*/*": BINARY } },
    304: {
      description: "`If-None-Match` matched the current ETag",
      headers: { ETag: DOWNLOAD_HEADERS.ETag! },
    },
    400: { ...errorResponses(400)[400], description: "A token longer than 256 characters" },
    ...errorResponses(404, 410, 503),
    416: { ...errorResponses(416)[416], description: "The range starts beyond the end of the file" },
  },
});

export type DownloadRoute = typeof download;
export type DownloadByLinkRoute = typeof downloadByLink;
