import type { Context } from "hono";
import type { Db } from "../../db/client";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedEnv, AuthedRouteHandler } from "../../http/types";
import { buildObjectKey } from "../../files/file-keys";
import { callStorage } from "../../files/storage-errors";
import { discardUpload, isExpired, UPLOAD_TTL_MS } from "../../files/resumable-expiry";
import { completionProblem, partSizeFor, partSizeProblem } from "../../files/resumable-parts";
import * as queries from "../../files/resumable.queries";
import type { AbortRoute, CompleteRoute, CreateRoute, UploadPartRoute } from "./uploads.routes";

const DEFAULT_CONTENT_TYPE = "application/octet-stream";
/** Unfinished uploads per user: each holds an R2 multipart upload until it expires. */
const MAX_OPEN_UPLOADS = 20;

const notFound = () => new ApiError(404, "Upload not found");

/** The caller's unexpired upload; an expired one is aborted now and answered 410. */
async function activeUpload(c: Context<AuthedEnv>, db: Db, uploadId: string): Promise<queries.UploadRow> {
  const upload = await queries.findUploadForUser(db, uploadId, c.get("user").id);
  if (!upload) throw notFound();
  if (isExpired(upload)) {
    await callStorage("abortMultipartUpload", () => discardUpload(c.env.R2_BUCKET, db, upload));
    throw new ApiError(410, "Upload expired: start a new one");
  }
  return upload;
}

export const create: AuthedRouteHandler<CreateRoute> = async (c) => {
  const { fileName, contentType = DEFAULT_CONTENT_TYPE, directory, size } = c.req.valid("json");
  const db = c.get("db");
  const userId = c.get("user").id;
  const now = new Date();
  if ((await queries.countOpenUploadsForUser(db, userId, now.toISOString())) >= MAX_OPEN_UPLOADS) {
    throw new ApiError(
      429,
      `Too many unfinished uploads: complete or abort one (at most ${MAX_OPEN_UPLOADS})`,
    );
  }
  const key = buildObjectKey(fileName, directory || undefined);
  const multipart = await callStorage("createMultipartUpload", () =>
    c.env.R2_BUCKET.createMultipartUpload(key, {
      httpMetadata: { contentType },
      customMetadata: { originalName: fileName },
    }),
  );
  const upload = {
    id: crypto.randomUUID(),
    userId,
    key,
    r2UploadId: multipart.uploadId,
    contentType,
    partSize: partSizeFor(size),
    size: size ?? null,
    expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS).toISOString(),
  };
  // Without its row nobody could finish or abort the R2 upload, so drop it if the insert fails.
  await queries.insertUpload(db, upload).catch(async (err: unknown) => {
    await multipart.abort().catch(() => {});
    throw err;
  });
  return created(c, { uploadId: upload.id, key, partSize: upload.partSize, expiresAt: upload.expiresAt });
};

function contentLength(request: Request): number {
  const header = request.headers.get("Content-Length");
  if (header === null || !/^\d{1,15}$/.test(header.trim())) {
    throw new ApiError(411, "Content-Length required: send the part as a body of known length");
  }
  return Number(header);
}

export const uploadPart: AuthedRouteHandler<UploadPartRoute> = async (c) => {
  const { uploadId, partNumber } = c.req.valid("param");
  const db = c.get("db");
  const upload = await activeUpload(c, db, uploadId);
  const length = contentLength(c.req.raw);
  const problem = partSizeProblem(upload, partNumber, length);
  if (problem) throw new ApiError(length > upload.partSize ? 413 : 400, problem);
  const body = c.req.raw.body;
  if (!body) throw new ApiError(400, "Empty part");
  const part = await callStorage("uploadPart", () =>
    c.env.R2_BUCKET.resumeMultipartUpload(upload.key, upload.r2UploadId).uploadPart(partNumber, body),
  );
  await queries.upsertPart(db, { uploadId, partNumber, etag: part.etag, size: length });
  return ok(c, { partNumber, etag: part.etag });
};

export const complete: AuthedRouteHandler<CompleteRoute> = async (c) => {
  const { uploadId } = c.req.valid("param");
  const db = c.get("db");
  const upload = await activeUpload(c, db, uploadId);
  const parts = await queries.listParts(db, uploadId);
  const problem = completionProblem(upload, parts);
  if (problem) throw new ApiError(400, problem);
  const object = await callStorage("completeMultipartUpload", () =>
    c.env.R2_BUCKET.resumeMultipartUpload(upload.key, upload.r2UploadId).complete(
      parts.map(({ partNumber, etag }) => ({ partNumber, etag })),
    ),
  );
  await queries.deleteUpload(db, uploadId);
  c.get("logger").info("upload_stored", { key: object.key, size: object.size, parts: parts.length });
  return created(c, {
    key: object.key,
    etag: object.etag,
    size: object.size,
    contentType: object.httpMetadata?.contentType ?? upload.contentType,
  });
};

export const abort: AuthedRouteHandler<AbortRoute> = async (c) => {
  const { uploadId } = c.req.valid("param");
  const db = c.get("db");
  const upload = await queries.findUploadForUser(db, uploadId, c.get("user").id);
  if (!upload) throw notFound();
  await callStorage("abortMultipartUpload", () => discardUpload(c.env.R2_BUCKET, db, upload));
  return ok(c, { uploadId });
};
