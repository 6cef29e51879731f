import { decodeField } from "multipasta";
import { buildObjectKey, isValidDirectory, MAX_ORIGINAL_NAME_BYTES, utf8Length } from "./file-keys";
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
}

export interface UploadOptions {
  maxBytes: number;
  /** The uploader: the owner a private object names. */
  ownerId: number;
  /** Bytes the uploader may still store; past them `overQuota()` is thrown as the body streams. */
  room: number;
  overQuota: () => Error;
  /** Runs with the final key and size before the object becomes visible (the quota reservation). */
  beforeVisible: (key: string, size: number) => Promise<void>;
  partSize?: number;
}

/** Room for boundaries, part headers and the directory field on top of the file bytes. */
const MULTIPART_OVERHEAD = 64 * 1024;
const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/** Where the form stands: between parts, inside the one `file` part, or inside another file part (ignored). */
interface FormState {
  at: "between" | "file" | "ignored";
  directory?: string;
  visibility?: Visibility;
  upload?: OpenUpload;
}

const VISIBILITY_VALUES = new Set(["public", "private"]);

/**
 * One transition. Rules: exactly one `file` part, at most one valid `directory` and `visibility`;
 * other fields are ignored.
 */
async function step(
  state: FormState,
  event: FormEvent,
  bucket: R2Bucket,
  options: UploadOptions,
): Promise<FormState> {
  switch (event.type) {
    case "field": {
      if (event.name === "file") throw bad("Invalid file");
      if (event.name === "visibility") {
        const visibility = decodeField(event.info, event.value) || "public";
        if (state.visibility !== undefined || !VISIBILITY_VALUES.has(visibility)) {
          throw bad("Invalid visibility: public or private");
        }
        return { ...state, visibility: visibility as Visibility };
      }
      if (event.name !== "directory") return state;
      if (state.directory !== undefined) throw bad("Invalid directory");
      const directory = decodeField(event.info, event.value);
      if (directory !== "" && !isValidDirectory(directory)) throw bad("Invalid directory");
      return { ...state, directory };
    }
    case "file": {
      if (event.part.name !== "file") return { ...state, at: "ignored" };
      if (state.upload) throw bad("Only one file per upload");
      const upload = openWriter(bucket, event.part, state, options);
      return { ...state, at: "file", upload };
    }
    case "chunk": {
      if (state.at !== "file" || !state.upload) return state;
      const { writer } = state.upload;
      const size = writer.size + event.chunk.length;
      if (size > options.maxBytes) throw tooLarge();
      if (size > options.room) throw options.overQuota();
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
  if (Number.isFinite(declared) && declared > options.room + MULTIPART_OVERHEAD) throw options.overQuota();
  if (!request.body) throw bad("Missing file");

  let state: FormState = { at: "between" };
  try {
    for await (const event of formEvents(request.body, contentType, options.maxBytes + MULTIPART_OVERHEAD)) {
      state = await step(state, event, bucket, options);
    }
    const { upload, directory } = state;
    if (!upload) throw bad("Missing file");
    const visibility = state.visibility ?? "public";
    const customMetadata = objectMetadata(upload.originalName, visibility, options.ownerId);
    const sameMetadata = JSON.stringify(customMetadata) === JSON.stringify(upload.metadataAtOpen);
    const key = upload.keyIn(directory || undefined, sameMetadata ? upload.uuid : crypto.randomUUID());
    const object = await upload.writer.finish(key, { customMetadata, beforeVisible: options.beforeVisible });
    return {
      key: object.key,
      etag: object.etag,
      size: object.size,
      contentType: object.httpMetadata?.contentType ?? DEFAULT_CONTENT_TYPE,
      originalName: upload.originalName,
      visibility,
    };
  } catch (err) {
    await state.upload?.writer.abort().catch(() => {});
    if (err instanceof URIError) throw bad("Invalid file: malformed filename*");
    throw err;
  }
}

/** A writer under the key and metadata of the fields known so far, and how to name the final key. */
interface OpenUpload {
  writer: ObjectWriter;
  originalName: string;
  uuid: string;
  metadataAtOpen: Record<string, string>;
  keyIn: (directory: string | undefined, uuid: string) => string;
}

function openWriter(bucket: R2Bucket, part: FilePart, sofar: FormState, options: UploadOptions): OpenUpload {
  const originalName = part.filename ?? "";
  if (utf8Length(originalName) > MAX_ORIGINAL_NAME_BYTES) {
    throw bad(`Invalid file: filename longer than ${MAX_ORIGINAL_NAME_BYTES} bytes`);
  }
  const uuid = crypto.randomUUID();
  const keyIn = (directory: string | undefined, id: string) => buildObjectKey(originalName, directory, id);
  const metadataAtOpen = objectMetadata(originalName, sofar.visibility ?? "public", options.ownerId);
  const writer = new ObjectWriter(bucket, {
    key: keyIn(sofar.directory || undefined, uuid),
    contentType: part.contentType || DEFAULT_CONTENT_TYPE,
    customMetadata: metadataAtOpen,
    partSize: options.partSize,
  });
  return { writer, originalName, uuid, metadataAtOpen, keyIn };
}
