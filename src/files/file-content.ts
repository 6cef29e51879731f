// Runs in both: a user's own file, or a team's, as a model or an AI client reads it (the chat's Durable Object, /mcp).
import { userOwner, type Owner } from "../core/owner";
import type { Db } from "../db/client";
import { isStorableKey } from "./file-keys";
import { findFileOf, type FileRow } from "./file-records.queries";

/** Text of one file the chat inlines for the model, and readFile answers: the rest is cut, with a note. */
export const TEXT_INLINE_BYTES = 16 * 1024;
/** The largest image the chat sends to a model that takes images. */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

const TEXT_TYPES =
  /^(?:text\/[\w.+-]+|application\/(?:json|x-ndjson|xml|yaml|x-yaml|toml|javascript|sql|x-sh|[\w.-]+\+(?:json|xml)))$/;
// A type that says nothing (octet-stream, as curl sends an unknown file): the name may still say text.
const TEXT_NAMES =
  /\.(?:txt|text|md|markdown|csv|tsv|json|ndjson|jsonl|xml|ya?ml|toml|log|ini|html?|css|js|ts|py|sql|sh)$/i;
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

/** The media type without parameters, lower case (`Text/Plain; charset=utf-8` is `text/plain`). */
export function bareType(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

/** Text a model can read (text/*, JSON, Markdown, CSV, XML, YAML...), by type, or by name when the type says nothing. */
export function isTextLike(contentType: string, name: string): boolean {
  const type = bareType(contentType);
  if (TEXT_TYPES.test(type)) return true;
  return (type === "" || type === "application/octet-stream") && TEXT_NAMES.test(name);
}

/** An image a model may be shown (PNG, JPEG, WebP, GIF). */
export function isImage(contentType: string): boolean {
  return IMAGE_TYPES.has(bareType(contentType));
}

/** The first bytes of a file, and whether there were more. */
export interface FileHead {
  file: FileRow;
  bytes: Uint8Array;
  truncated: boolean;
}

/**
 * The user's own file (private ones included), or null when it is not theirs: anyone else's, deleted,
 * or uploaded before files were recorded (nobody's). Ownership is in the query, never in the caller.
 */
export const ownFile = (db: Db, userId: number, key: string) => fileOf(db, userOwner(userId), key);

/** The file of `owner` (a user's own, or a team's) under `key`, or null, as ownFile(). */
export async function fileOf(db: Db, owner: Owner, key: string): Promise<FileRow | null> {
  return isStorableKey(key) ? findFileOf(db, key, owner) : null;
}

/** At most `maxBytes` of a recorded file; null when its object is gone (deleted meanwhile). */
export async function readHead(bucket: R2Bucket, file: FileRow, maxBytes: number): Promise<FileHead | null> {
  const cut = file.size > maxBytes;
  const object = await bucket.get(file.key, cut ? { range: { offset: 0, length: maxBytes } } : undefined);
  if (!object) return null;
  const bytes = new Uint8Array(await object.arrayBuffer());
  return { file, bytes, truncated: cut || bytes.byteLength < object.size };
}

/** UTF-8 text of a file's first bytes; a character split by the cut is left out, never garbled. */
export function decodeText(head: Pick<FileHead, "bytes" | "truncated">): string {
  return new TextDecoder().decode(head.bytes, { stream: head.truncated });
}

/** `1,234 bytes`, `56 KB`, `7.8 MB`: a size as a note shows it. */
export function sizeLabel(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
