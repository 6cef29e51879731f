import type { Context } from "hono";
import type { Db } from "../../db/client";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedEnv, AuthedRouteContext } from "../../http/types";
import { userGoneOr } from "../../http/require-auth";
import { orgOwner } from "../../core/owner";
import { ownerOfUuid } from "../../core/owner-uuids";
import { dbOfCarriedOwner } from "../../db/carried-owner";
import { ownerOfRow, quotaOf } from "../../files/file-owner";
import { recordObject } from "../../files/file-records";
import { reservePart } from "../../files/quota";
import { callStorage } from "../../files/storage-errors";
import { discardUpload, isExpired } from "../../files/resumable-expiry";
import { openResumableUpload } from "../../files/resumable-open";
import { completionUnderWay, whileCompleting } from "../../files/resumable-completion";
import { completionProblem, partSizeProblem } from "../../files/resumable-parts";
import { visibilityOf } from "../../files/visibility";
import * as queries from "../../files/resumable.queries";
import { placeReach } from "../../todos/todo-places";
import { ownerNamed, requireOwnerAccess } from "../files/file-access";
import { teamFileEntry } from "../files/team-audit";
import { uploadFailure } from "../files/upload-failures";
import type { AbortRoute, CompleteRoute, CreateRoute, UploadPartRoute } from "./uploads.routes";

const DEFAULT_CONTENT_TYPE = "application/octet-stream";
/**
 * Unfinished uploads per user: each holds an R2 multipart upload until it expires. Counted in every
 * workspace the user may upload to (their own and their teams'), whose shards differ.
 */
const MAX_OPEN_UPLOADS = 20;

const notFound = () => new ApiError(404, "Upload not found");
const beingCompleted = () =>
  new ApiError(409, "Upload is being completed by another request: wait for its answer", undefined, {
    "Retry-After": "5",
  });

/** An upload's row and the data database holding it (the workspace its id names). */
interface PlacedUpload {
  db: Db;
  upload: queries.UploadRow;
}

/**
 * The caller's upload; for a team's, only while their role there may still upload (a member removed
 * meanwhile finds nothing, one made viewer gets 403).
 */
async function ownUpload(c: Context<AuthedEnv>, uploadId: string): Promise<PlacedUpload> {
  const db = await dbOfCarriedOwner(c.var.dbs, ownerOfUuid(uploadId), { kind: "upload", ref: uploadId });
  const upload = db && (await queries.findUploadForUser(db, uploadId, c.get("user").id));
  if (!db || !upload) throw notFound();
  if (upload.orgId !== null) await requireOwnerAccess(c, orgOwner(upload.orgId), "data:write", notFound);
  return { db, upload };
}

/** The caller's unexpired upload that no other request is completing; an expired one is aborted now and answered 410. */
async function activeUpload(c: Context<AuthedEnv>, uploadId: string): Promise<PlacedUpload> {
  const placed = await ownUpload(c, uploadId);
  const { db, upload } = placed;
  if (completionUnderWay(upload)) throw beingCompleted();
  if (isExpired(upload)) {
    await callStorage("abortMultipartUpload", () => discardUpload(c.env.R2_BUCKET, db, upload));
    throw new ApiError(410, "Upload expired: start a new one");
  }
  return placed;
}

/** The user's unexpired uploads in the data databases of their workspaces: their own, and each team's they are in. */
async function openUploadsOf(c: Context<AuthedEnv>, userId: number, now: string): Promise<number> {
  const { dbs } = await placeReach(c.var.dbs, userId, true);
  const counts = await Promise.all(dbs.map((db) => queries.countOpenUploadsForUser(db, userId, now)));
  return counts.reduce((sum, n) => sum + n, 0);
}

export async function create(c: AuthedRouteContext<CreateRoute>) {
  const { contentType = DEFAULT_CONTENT_TYPE, orgId, visibility: asked, ...input } = c.req.valid("json");
  const userId = c.get("user").id;
  const owner = await ownerNamed(c, orgId, "data:write");
  const db = await c.var.dbs.of(owner);
  if (owner.kind === "org" && asked === "public") {
    throw new ApiError(400, "A team's files are private to the team: share one with a link instead");
  }
  const visibility = asked ?? (owner.kind === "org" ? "private" : "public");
  const now = new Date();
  if ((await openUploadsOf(c, userId, now.toISOString())) >= MAX_OPEN_UPLOADS) {
    throw new ApiError(
      429,
      `Too many unfinished uploads: complete or abort one (at most ${MAX_OPEN_UPLOADS})`,
    );
  }
  let upload;
  try {
    upload = await openResumableUpload(c.env, db, userId, owner, { ...input, contentType, visibility }, now);
  } catch (err) {
    throw userGoneOr(err, userId);
  }
  const { id: uploadId, key, partSize, expiresAt } = upload;
  return created(c, { uploadId, key, partSize, expiresAt });
}

function contentLength(request: Request): number {
  const header = request.headers.get("Content-Length");
  if (header === null || !/^\d{1,15}$/.test(header.trim())) {
    throw new ApiError(411, "Content-Length required: send the part as a body of known length");
  }
  return Number(header);
}

export async function uploadPart(c: AuthedRouteContext<UploadPartRoute>) {
  const { uploadId, partNumber } = c.req.valid("param");
  const { db, upload } = await activeUpload(c, uploadId);
  const length = contentLength(c.req.raw);
  const problem = partSizeProblem(upload, partNumber, length);
  if (problem) throw new ApiError(length > upload.partSize ? 413 : 400, problem);
  const body = c.req.raw.body;
  if (!body) throw new ApiError(400, "Empty part");
  // A declared size was reserved whole when the upload opened; otherwise each part reserves its bytes.
  if (upload.size === null) {
    await reservePart(db, upload, partNumber, length, quotaOf(c.env, ownerOfRow(upload)));
  }
  const part = await callStorage("uploadPart", () =>
    c.env.R2_BUCKET.resumeMultipartUpload(upload.key, upload.r2UploadId).uploadPart(partNumber, body),
  );
  await queries.upsertPart(db, { uploadId, partNumber, etag: part.etag, size: length });
  return ok(c, { partNumber, etag: part.etag });
}

export async function complete(c: AuthedRouteContext<CompleteRoute>) {
  const { uploadId } = c.req.valid("param");
  const { db, upload } = await activeUpload(c, uploadId);
  const stored = await whileCompleting(db, uploadId, () => completeClaimed(c, db, upload));
  if (!stored) throw beingCompleted();
  const { result, parts } = stored;
  c.get("logger").info("upload_stored", { key: result.key, size: result.size, parts });
  return created(c, result);
}

/** Joins the parts in R2 and records the file, holding the upload's completion claim. */
async function completeClaimed(c: Context<AuthedEnv>, db: Db, upload: queries.UploadRow) {
  const uploadId = upload.id;
  const parts = await queries.listParts(db, uploadId);
  const problem = completionProblem(upload, parts);
  if (problem) throw new ApiError(400, problem);
  const object = await callStorage("completeMultipartUpload", () =>
    c.env.R2_BUCKET.resumeMultipartUpload(upload.key, upload.r2UploadId).complete(
      parts.map(({ partNumber, etag }) => ({ partNumber, etag })),
    ),
  );
  // The record takes the upload's reservation and row with it, and a team's audit entry, in one batch.
  const audit = teamFileEntry(c, db, ownerOfRow(upload), {
    action: "file.uploaded",
    target: object.key,
    detail: { name: object.customMetadata?.originalName ?? "", size: object.size },
  });
  const record = recordObject(
    c.env.R2_BUCKET,
    db,
    uploadId,
    {
      key: object.key,
      originalName: object.customMetadata?.originalName ?? "",
      size: object.size,
      contentType: object.httpMetadata?.contentType ?? upload.contentType,
      etag: object.etag,
      visibility: visibilityOf(object),
    },
    [...audit, queries.deleteUploadRow(db, uploadId)],
  );
  await record.catch(async (err: unknown) => {
    throw await uploadFailure(c.var.dbs.directory, err, upload.userId);
  });
  const result = {
    key: object.key,
    etag: object.etag,
    size: object.size,
    contentType: object.httpMetadata?.contentType ?? upload.contentType,
  };
  return { result, parts: parts.length };
}

export async function abort(c: AuthedRouteContext<AbortRoute>) {
  const { uploadId } = c.req.valid("param");
  const { db, upload } = await ownUpload(c, uploadId);
  if (completionUnderWay(upload)) throw beingCompleted();
  await callStorage("abortMultipartUpload", () => discardUpload(c.env.R2_BUCKET, db, upload));
  return ok(c, { uploadId });
}
