import { createRoute } from "@hono/zod-openapi";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import { keyAccess } from "../../http/route-access";
import { FileKeyParams } from "../files/files.schemas";
import { CreateLinkBody, FileLinkListSchema, FileLinkSchema, LinkParams } from "./file-links.schemas";

const tags = ["Share links"];

export const create = createRoute({
  operationId: "createFileLink",
  ...keyAccess("files:write"),
  method: "post",
  path: "/api/files/{key}/links",
  tags,
  summary: "Share one of your files through a link",
  description:
    "A signed URL anyone can download the file with, private files included, until it expires, reaches " +
    "`maxDownloads` (then 410) or you revoke it (then 404). At most 20 live links per file (409 beyond).",
  request: { params: FileKeyParams, body: jsonBody(CreateLinkBody) },
  responses: {
    201: okContent(FileLinkSchema, "The link; share its `url`"),
    ...errorResponses(400, 401, 403, 404, 409, 413),
  },
});

export const list = createRoute({
  operationId: "listFileLinks",
  ...keyAccess("files:read"),
  method: "get",
  path: "/api/files/{key}/links",
  tags,
  summary: "List the links of one of your files",
  description: "Every link with its state and download count, newest first (at most 100).",
  request: { params: FileKeyParams },
  responses: {
    200: okContent(FileLinkListSchema, "The file's links"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const revoke = createRoute({
  operationId: "revokeFileLink",
  ...keyAccess("files:write"),
  method: "post",
  path: "/api/files/{key}/links/{linkId}/revoke",
  tags,
  summary: "Revoke a link",
  description: "From then on the link answers 404. Revoking again changes nothing.",
  request: { params: LinkParams },
  responses: {
    200: okContent(FileLinkSchema, "The revoked link"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export type CreateRoute = typeof create;
export type ListRoute = typeof list;
export type RevokeRoute = typeof revoke;
