import * as Multipart from "multipasta";
import { parseFormDisposition } from "./form-disposition";
import { invalidUpload as bad, uploadTooLarge as tooLarge } from "./upload-errors";

// The upload form as a stream of parser events (fields, file starts, file chunks), for form-upload.ts.

const MAX_PARTS = 8;
const MAX_FIELD_BYTES = 4 * 1024;

const PARSE_ERRORS: Record<string, () => Error> = {
  InvalidBoundary: () => bad("Invalid multipart body: missing boundary"),
  BadHeaders: () => bad("Invalid multipart body: malformed part headers"),
  InvalidDisposition: () => bad("Invalid multipart body: part without a name"),
  EndNotReached: () => bad("Invalid multipart body: truncated"),
  MaxParts: () => bad("Too many form fields"),
  MaxFieldSize: () => bad("Form field too large"),
  MaxTotalSize: tooLarge,
};

function parseError(error: Multipart.MultipartError): Error {
  // oxlint-disable-next-line no-underscore-dangle -- multipasta's discriminant
  const name = error._tag === "ReachedLimit" ? error.limit : error._tag;
  return (PARSE_ERRORS[name] ?? (() => bad("Invalid multipart body")))();
}

/**
 * multipasta's own Content-Disposition parsing drops every parameter when a filename holds a
 * character above U+00FF (raw UTF-8, as browsers send it), so name and filename are read here.
 */
const partOf = (info: Multipart.PartInfo) =>
  parseFormDisposition(headerValue(info.headers["content-disposition"])) ?? { name: info.name };

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export interface FilePart {
  name: string;
  filename?: string;
  contentType: string;
}

/** What the parser reports while the body streams in, in order. */
export type FormEvent =
  | { type: "field"; name: string; info: Multipart.PartInfo; value: Uint8Array }
  | { type: "file"; part: FilePart }
  | { type: "chunk"; chunk: Uint8Array }
  | { type: "fileEnd" };

/**
 * Reads the body chunk by chunk and yields the parser's events for each chunk before the next
 * one is read, so the consumer's pace (R2's) sets the upload's pace. Ends at the closing
 * boundary; a parse error, a truncated or an interrupted body is thrown as an InvalidUploadError.
 */
export async function* formEvents(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  maxTotalSize: number,
): AsyncGenerator<FormEvent> {
  const queue: (FormEvent | { type: "error"; error: Multipart.MultipartError } | { type: "done" })[] = [];
  const parser = Multipart.make({
    headers: { "content-type": contentType },
    // A `file` entry without a filename is a text field, answered 400 "Invalid file".
    isFile: (info) => partOf(info).filename !== undefined,
    maxParts: MAX_PARTS,
    maxFieldSize: MAX_FIELD_BYTES,
    maxTotalSize,
    onField: (info, value) => queue.push({ type: "field", name: partOf(info).name, info, value }),
    onFile: (info) => {
      queue.push({ type: "file", part: { ...partOf(info), contentType: info.contentType } });
      return (chunk) => queue.push(chunk ? { type: "chunk", chunk } : { type: "fileEnd" });
    },
    onError: (error) => queue.push({ type: "error", error }),
    onDone: () => queue.push({ type: "done" }),
  });
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done: ended } = await reader.read().catch(() => {
        throw bad("Invalid multipart body: the upload was interrupted");
      });
      if (ended) parser.end();
      else parser.write(value);
      for (const event of queue.splice(0)) {
        if (event.type === "error") throw parseError(event.error);
        if (event.type === "done") return;
        yield event;
      }
      if (ended) throw bad("Invalid multipart body: truncated");
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
