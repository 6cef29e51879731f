import { decodeField } from "multipasta";
import { buildObjectKey, isValidDirectory, MAX_ORIGINAL_NAME_BYTES, utf8Length } from "./file-keys";
import { ObjectWriter } from "./file-writer";
import { formEvents, type FilePart, type FormEvent } from "./form-events";
import { invalidUpload as bad, uploadTooLarge as tooLarge } from "./upload-errors";

export interface UploadResult {
  key: string;
  etag: string;
  size: number;
  contentType: string;
}

export interface UploadOptions {
  maxBytes: number;
  partSize?: number;
}

/** Room for boundaries, part headers and the directory field on top of the file bytes. */
const MULTIPART_OVERHEAD = 64 * 1024;
const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/** Where the form stands: between parts, inside the one `file` part, or inside another file part (ignored). */
interface FormState {
  at: "between" | "file" | "ignored";
  directory?: string;
  upload?: OpenUpload;
}

/** One transition. Rules: exactly one `file` part, at most one valid `directory`; other fields are ignored. */
async function step(
  state: FormState,
  event: FormEvent,
  bucket: R2Bucket,
  options: UploadOptions,
): Promise<FormState> {
  switch (event.type) {
    case "field": {
      if (event.name === "file") throw bad("Invalid file");
      if (event.name !== "directory") return state;
      if (state.directory !== undefined) throw bad("Invalid directory");
      const directory = decodeField(event.info, event.value);
      if (directory !== "" && !isValidDirectory(directory)) throw bad("Invalid directory");
      return { ...state, directory };
    }
    case "file": {
      if (event.part.name !== "file") return { ...state, at: "ignored" };
      if (state.upload) throw bad("Only one file per upload");
      const upload = openWriter(bucket, event.part, state.directory || undefined, options.partSize);
      return { ...state, at: "file", upload };
    }
    case "chunk": {
      if (state.at !== "file" || !state.upload) return state;
      const { writer } = state.upload;
      if (writer.size + event.chunk.length > options.maxBytes) throw tooLarge();
      await writer.write(event.chunk);
      return state;
    }
    case "fileEnd":
      return { ...state, at: "between" };
  }
}

/**
 * Streams a multipart/form-data request (`file`, optional `directory`) into R2 without holding
 * the file in memory: formEvents() parses as the body arrives, step() moves the form's state on
 * and hands each file chunk to the writer before the next one is read.
 *
 * `directory` may come before or after `file`, so the key is decided at the closing boundary.
 * A file of at most one part is still in memory then and is put under its final key. A longer
 * one has been streaming into an R2 multipart upload under the key of the directory known when
 * it began (none when `directory` comes later); a late `directory` then moves the object once,
 * streamed, under the same UUID.
 *
 * The object is committed only after the closing boundary, so a truncated or invalid body
 * leaves nothing behind.
 */
export async function storeUpload(
  bucket: R2Bucket,
  request: Request,
  options: UploadOptions,
): Promise<UploadResult> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw bad("Expected a multipart/form-data body");
  }
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > options.maxBytes + MULTIPART_OVERHEAD) throw tooLarge();
  if (!request.body) throw bad("Missing file");

  let state: FormState = { at: "between" };
  try {
    for await (const event of formEvents(request.body, contentType, options.maxBytes + MULTIPART_OVERHEAD)) {
      state = await step(state, event, bucket, options);
    }
    if (!state.upload) throw bad("Missing file");
    const object = await state.upload.writer.finish(state.upload.keyIn(state.directory || undefined));
    return {
      key: object.key,
      etag: object.etag,
      size: object.size,
      contentType: object.httpMetadata?.contentType ?? DEFAULT_CONTENT_TYPE,
    };
  } catch (err) {
    await state.upload?.writer.abort().catch(() => {});
    if (err instanceof URIError) throw bad("Invalid file: malformed filename*");
    throw err;
  }
}

/** A writer under the key for the directory known so far, and the key for the one known at the end. */
interface OpenUpload {
  writer: ObjectWriter;
  keyIn: (directory: string | undefined) => string;
}

function openWriter(
  bucket: R2Bucket,
  part: FilePart,
  directorySoFar: string | undefined,
  partSize: number | undefined,
): OpenUpload {
  const originalName = part.filename ?? "";
  if (utf8Length(originalName) > MAX_ORIGINAL_NAME_BYTES) {
    throw bad(`Invalid file: filename longer than ${MAX_ORIGINAL_NAME_BYTES} bytes`);
  }
  const uuid = crypto.randomUUID();
  const keyIn = (directory: string | undefined) => buildObjectKey(originalName, directory, uuid);
  const writer = new ObjectWriter(bucket, {
    key: keyIn(directorySoFar),
    contentType: part.contentType || DEFAULT_CONTENT_TYPE,
    customMetadata: { originalName },
    partSize,
  });
  return { writer, keyIn };
}
