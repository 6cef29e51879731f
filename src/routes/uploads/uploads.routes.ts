import { createRoute } from "@hono/zod-openapi";
import { keyAccess } from "../../http/route-access";
import { IdempotencyHeaders, idempotent } from "../../http/idempotency";
import { errorResponses, jsonBody, okContent } from "../../http/openapi-helpers";
import { UploadResultSchema } from "../files/files.schemas";
import {
  AbortedUploadSchema,
  CreateUploadBody,
  PartParams,
  PartResultSchema,
  UploadIdParams,
  UploadSessionSchema,
} from "./uploads.schemas";

const tags = ["Resumable uploads"];

export const create = createRoute({
  method: "post",
  path: "/api/uploads",
  operationId: "createUpload",
  ...keyAccess("files:write"),
  tags,
  summary: "Start a resumable upload (files of any size)",
  description:
    "Opens an R2 multipart upload owned by you. Send the file in parts of `partSize` bytes with " +
    "`PUT /api/uploads/{uploadId}/parts/{partNumber}` (any order, retries allowed), then complete it. " +
    "The key follows the same rules as `POST /api/upload`. Unfinished uploads expire after 24 hours. A declared " +
    "`size` is held against your storage quota from the start (413 if it cannot fit); without one, each part is. " +
    "With `orgId` the file will be the team's (members and up; viewers 403, anyone else 404) and counts against " +
    "the team's quota; its parts, completion and abort stay yours, while your role there still allows uploads.",
  middleware: [idempotent("POST /api/uploads")] as const,
  request: { headers: IdempotencyHeaders, body: jsonBody(CreateUploadBody) },
  responses: {
    201: okContent(UploadSessionSchema, "Started; send the parts"),
    ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429, 503),
  },
});

export const uploadPart = createRoute({
  method: "put",
  path: "/api/uploads/{uploadId}/parts/{partNumber}",
  operationId: "uploadPart",
  ...keyAccess("files:write"),
  tags,
  summary: "Send one part (raw bytes)",
  description:
    "The body is the part's bytes with a `Content-Length`. Parts are numbered from 1; every part but the last " +
    "is exactly `partSize` bytes. Sending a part again replaces it. While a completion of the upload is " +
    "under way: 409 with `Retry-After`.",
  request: {
    params: PartParams,
    body: {
      content: { "application/octet-stream": { schema: { type: "string", format: "binary", minLength: 1 } } },
      required: true,
    },
  },
  responses: {
    200: okContent(PartResultSchema, "Stored"),
    ...errorResponses(400, 401, 403, 404, 409, 410, 411, 413, 503),
  },
});

export const complete = createRoute({
  method: "post",
  path: "/api/uploads/{uploadId}/complete",
  operationId: "completeUpload",
  ...keyAccess("files:write"),
  tags,
  summary: "Assemble the parts into the object",
  description:
    "Checks that parts 1..n are all there and correctly sized, then makes the object visible under `key`. " +
    "Answers like `POST /api/upload`: use `key` as `attachments[].fileKey` or to download. One completion " +
    "runs at a time: another one sent meanwhile is 409 with `Retry-After` (its answer is the first one's, " +
    "or 404 once the upload is done).",
  middleware: [idempotent("POST /api/uploads/{uploadId}/complete")] as const,
  request: { params: UploadIdParams, headers: IdempotencyHeaders },
  responses: {
    201: okContent(UploadResultSchema, "Stored; `key` downloads the file"),
    ...errorResponses(400, 401, 403, 404, 409, 410, 422, 503),
  },
});

export const abort = createRoute({
  method: "post",
  path: "/api/uploads/{uploadId}/abort",
  operationId: "abortUpload",
  ...keyAccess("files:write"),
  tags,
  summary: "Abandon an upload",
  description:
    "Discards every part already sent; no object is created. While a completion is under way: 409 with `Retry-After`.",
  request: { params: UploadIdParams },
  responses: {
    200: okContent(AbortedUploadSchema, "Aborted"),
    ...errorResponses(400, 401, 403, 404, 409, 503),
  },
});

export type CreateRoute = typeof create;
export type UploadPartRoute = typeof uploadPart;
export type CompleteRoute = typeof complete;
export type AbortRoute = typeof abort;
