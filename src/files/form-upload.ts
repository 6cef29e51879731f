import { decodeField } from "multipasta";
import type { Owner } from "../core/owner";
import { ownerUuid } from "../core/owner-uuids";
import { buildObjectKey, MAX_ORIGINAL_NAME_BYTES, utf8Length } from "./file-keys";
import { visibilityFor, withField, type FormFields } from "./form-fields";
import { ObjectWriter } from "./object-writer";
import { formEvents, type FilePart, type FormEvent } from "./form-events";
import { invalidUpload as bad, uploadTooLarge as tooLarge } from "./upload-errors";
import { objectMetadata, type Visibility } from "./visibility";

export interface UploadResult {
  key: string;
  etag: string;
  size: number;
  contentType: string;
}

export interface StoredUpload extends UploadResult {
  originalName: string;
  visibility: Visibility;
  owner: Owner;
}

/** Whose the upload will be, and the room its owner has left. */
export interface Admission {
  owner: Owner;
  /** Bytes the owner may still store; past them `overQuota()` is thrown as the body streams. */
  room: number;
  overQuota: () => Error;
}

export interface UploadOptions {
  maxBytes: number;
  /**
   * Called when the file part begins, with the form's `orgId` if one came before it: whose the upload
   * is (throwing when the caller may not upload there) and the room left.
   */
  admit: (orgId: number | undefined) => Promise<Admission>;
  /** Runs with the owner, final key and size before the object becomes visible (the quota reservation). */
  beforeVisible: (owner: Owner, key: string, size: number) => Promise<void>;
  partSize?: number;
}

/** Room for boundaries, part headers and the directory field on top of the file bytes. */
const MULTIPART_OVERHEAD = 64 * 1024;
const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/** Where the form stands: between parts, inside the one `file` part, or inside another file part (ignored). */
interface FormState extends FormFields {
  at: "between" | "file" | "ignored";
  upload?: OpenUpload;
  /** The request's Content-Length, NaN without one. */
  declared?: number;
}

const declaredLength = (state: FormState) => (Number.isFinite(state.declared) ? state.declared! : 0);

/** One transition. Rules: exactly one `file` part; the other fields as withField() reads them. */
async function step(
  state: FormState,
  event: FormEvent,
  bucket: R2Bucket,
  options: UploadOptions,
): Promise<FormState> {
  switch (event.type) {
    case "field": {
      if (event.name === "file") throw bad("Invalid file");
      const decode = () => decodeField(event.info, event.value);
      return { ...state, ...withField(state, event.name, decode, state.upload !== undefined) };
    }
    case "file": {
      if (event.part.name !== "file") return { ...state, at: "ignored" };
      if (state.upload) throw bad("Only one file per upload");
      const admission = await options.admit(state.orgId);
      if (declaredLength(state) > admission.room + MULTIPART_OVERHEAD) throw admission.overQuota();
      const upload = openWriter(bucket, event.part, state, admission, options.partSize);
      return { ...state, at: "file", upload };
    }
    case "chunk": {
      if (state.at !== "file" || !state.upload) return state;
      const { writer, admission } = state.upload;
      const size = writer.size + event.chunk.length;
      if (size > options.maxBytes) throw tooLarge();
      if (size > admission.room) throw admission.overQuota();
      await writer.write(event.chunk);
      return state;
    }
    case "fileEnd":
      return { ...state, at: "between" };
  }
}

/**
 * Streams a multipart/form-data request (`file`, optional `directory` and `visibility`) into R2 without holding
 * the file in memory: formEvents() parses as the body arrives, step() moves the form's state on
 * and hands each file chunk to the writer before the next one is read.
 *
 * `directory` may come before or after `file`, so the key is decided at the closing boundary.
 * A file of at most one part is still in memory then and is put under its final key. A longer
 * one has been streaming into an R2 multipart upload under the key of the directory known when
 * it began (none when `directory` comes later); a late `directory` then moves the object once,
 * streamed, under the same UUID. A late `visibility` moves it too, under a new UUID (the metadata
 * changes, and the client has not seen the key).
 *
 * The object is committed only after the closing boundary, so a truncated or invalid body
 * leaves nothing behind.
 */
export async function storeUpload(
  bucket: R2Bucket,
  request: Request,
  options: UploadOptions,
): Promise<StoredUpload> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw bad("Expected a multipart/form-data body");
  }
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > options.maxBytes + MULTIPART_OVERHEAD) throw tooLarge();
  if (!request.body) throw bad("Missing file");

  let state: FormState = { at: "between", declared };
  try {
    for await (const event of formEvents(request.body, contentType, options.maxBytes + MULTIPART_OVERHEAD)) {
      state = await step(state, event, bucket, options);
    }
    const { upload, directory } = state;
    if (!upload) throw bad("Missing file");
    const { owner } = upload.admission;
    const visibility = visibilityFor(owner, state.visibility);
    const customMetadata = objectMetadata(upload.originalName, visibility, owner);
    const sameMetadata = JSON.stringify(customMetadata) === JSON.stringify(upload.metadataAtOpen);
    const key = upload.keyIn(directory || undefined, sameMetadata ? upload.uuid : ownerUuid(owner));
    const beforeVisible = (at: string, size: number) => options.beforeVisible(owner, at, size);
    const object = await upload.writer.finish(key, { customMetadata, beforeVisible });
    return {
      key: object.key,
      etag: object.etag,
      size: object.size,
      contentType: object.httpMetadata?.contentType ?? DEFAULT_CONTENT_TYPE,
      originalName: upload.originalName,
      visibility,
      owner,
    };
  } catch (err) {
    await state.upload?.writer.abort().catch(() => {});
    if (err instanceof URIError) throw bad("Invalid file: malformed filename*");
    throw err;
  }
}

/** A writer under the key and metadata of the fields known so far, and how to name the final key. */
interface OpenUpload {
  admission: Admission;
  writer: ObjectWriter;
  originalName: string;
  uuid: string;
  metadataAtOpen: Record<string, string>;
  keyIn: (directory: string | undefined, uuid: string) => string;
}

function openWriter(
  bucket: R2Bucket,
  part: FilePart,
  sofar: FormState,
  admission: Admission,
  partSize: number | undefined,
): OpenUpload {
  const originalName = part.filename ?? "";
  if (utf8Length(originalName) > MAX_ORIGINAL_NAME_BYTES) {
    throw bad(`Invalid file: filename longer than ${MAX_ORIGINAL_NAME_BYTES} bytes`);
  }
  const uuid = ownerUuid(admission.owner);
  const keyIn = (directory: string | undefined, id: string) => buildObjectKey(originalName, directory, id);
  const visibility = visibilityFor(admission.owner, sofar.visibility);
  const metadataAtOpen = objectMetadata(originalName, visibility, admission.owner);
  const writer = new ObjectWriter(bucket, {
    key: keyIn(sofar.directory || undefined, uuid),
    contentType: part.contentType || DEFAULT_CONTENT_TYPE,
    customMetadata: metadataAtOpen,
    partSize,
  });
  return { admission, writer, originalName, uuid, metadataAtOpen, keyIn };
}
