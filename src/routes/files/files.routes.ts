import { createRoute } from "@hono/zod-openapi";
import { keyAccess } from "../../http/route-access";
import { IdempotencyHeaders, idempotent } from "../../http/idempotency";
import { errorResponses, okContent } from "../../http/openapi-helpers";
import {
  DeletedFileSchema,
  DeleteFileQuery,
  FileKeyParams,
  FileListQuery,
  FilePageSchema,
  FileRecordSchema,
  UploadFormSchema,
  UploadQuery,
  UploadResultSchema,
} from "./files.schemas";

const TEAM_ROLES =
  "A team's file: members and up may change it (viewers 403), every member may read it, anyone else 404.";

const tags = ["Files"];

export const upload = createRoute({
  operationId: "upload",
  ...keyAccess("files:write"),
  method: "post",
  path: "/api/upload",
  tags,
  summary: "Upload a file to R2",
  description:
    "Streams the multipart body into R2 without buffering the file: files under 8 MiB are stored with one put, " +
    "larger ones with an R2 multipart upload that is aborted on any failure. `directory` and `file` may come in " +
    "either order. Filenames may be raw UTF-8 or RFC 8187 `filename*`. The size limit is `MAX_UPLOAD_BYTES` " +
    "(90 MiB by default, under Cloudflare's 100 MB body cap; larger files go through `POST /api/uploads`). The key is `[<directory>/]<uuid>-<filename>`; use it as `attachments[].fileKey`. " +
    "The file is recorded as yours (`GET /api/files`) and counts against your storage quota (`STORAGE_QUOTA_BYTES`): " +
    "an upload that would pass it is 413, naming the limit and your usage. With `Idempotency-Key`, the body's " +
    "SHA-256 (its multipart boundary left out, so a rebuilt form matches) is computed as it streams. " +
    "With `orgId` (form field before `file`, or query parameter) the file is the team's: private to its members, " +
    "listed with `GET /api/files?orgId=`, counted against the team's quota (`ORG_STORAGE_QUOTA_BYTES`), not yours; " +
    "members and up may upload (viewers 403, anyone else 404 `Team not found`).",
  // A retry of an upload may come minutes later: the body streams for as long as it takes.
  middleware: [idempotent("POST /api/upload", { streamedBody: true, inFlightSeconds: 900 })] as const,
  request: {
    headers: IdempotencyHeaders,
    query: UploadQuery,
    body: { content: { "multipart/form-data": { schema: UploadFormSchema } }, required: true },
  },
  responses: {
    201: okContent(UploadResultSchema, "Stored; `key` downloads the file"),
    ...errorResponses(400, 401, 403, 404, 409, 413, 422, 500, 503),
  },
});

export const list = createRoute({
  operationId: "listFiles",
  ...keyAccess("files:read"),
  method: "get",
  path: "/api/files",
  tags,
  summary: "List your files (or a team's), newest first, and the storage usage",
  description:
    "Keyset paging: pass `nextCursor` back as `cursor`. Files uploaded while you page appear on a first page, " +
    "never in the pages still to come, so none is skipped or repeated. Uploads from before files were recorded " +
    "are not listed. Without `orgId`, your own files only (never a team's, even those you uploaded); with it, " +
    "the team's files and usage, for every member (anyone else 404 `Team not found`).",
  request: { query: FileListQuery },
  responses: {
    200: okContent(FilePageSchema, "One page of the files and the usage"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const getOne = createRoute({
  operationId: "getFile",
  ...keyAccess("files:read"),
  method: "get",
  path: "/api/files/{key}",
  tags,
  summary: "Read one of your files' record",
  description: `Yours only: another user's key answers 404 \`File not found\`, as an unknown one does. ${TEAM_ROLES}`,
  request: { params: FileKeyParams },
  responses: {
    200: okContent(FileRecordSchema, "The file's record"),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const remove = createRoute({
  operationId: "deleteFile",
  ...keyAccess("files:write"),
  method: "post",
  path: "/api/files/{key}/delete",
  tags,
  summary: "Delete one of your files",
  description:
    "Gone at once from your files, usage, download and links (404). A file attached to todos answers 409 " +
    "naming them, unless `detach=true`, which removes those attachments too. Restorable until `restorableUntil`. " +
    TEAM_ROLES,
  request: { params: FileKeyParams, query: DeleteFileQuery },
  responses: {
    200: okContent(DeletedFileSchema, "Deleted"),
    ...errorResponses(400, 401, 403, 404, 409, 503),
  },
});

export const restore = createRoute({
  operationId: "restoreFile",
  ...keyAccess("files:write"),
  method: "post",
  path: "/api/files/{key}/restore",
  tags,
  summary: "Restore one of your files you deleted (undo a delete)",
  description:
    "Until `restorableUntil`: the same key, bytes and share links; 413 if it no longer fits your quota. " +
    "Detached attachments stay removed. A file not deleted is answered unchanged. Past the window: 410, then 404. " +
    TEAM_ROLES +
    " A team's file counts against the team's quota.",
  request: { params: FileKeyParams },
  responses: {
    200: okContent(FileRecordSchema, "The file's record, restored"),
    ...errorResponses(400, 401, 403, 404, 410, 413),
  },
});

export type UploadRoute = typeof upload;
export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type RemoveRoute = typeof remove;
export type RestoreRoute = typeof restore;
