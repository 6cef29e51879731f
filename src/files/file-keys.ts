import type { Owner } from "../core/owner";
import { ownerOfUuid } from "../core/owner-uuids";

/** R2 rejects keys longer than this many UTF-8 bytes (error 10020). */
export const MAX_KEY_BYTES = 1024;
/** Cap on the stored `originalName`: R2 rejects custom metadata of about 2 KB and more. */
export const MAX_ORIGINAL_NAME_BYTES = 1024;
export const MAX_DIRECTORY_LENGTH = 256;
/** The filename part of a key when the upload's filename is empty. */
export const DEFAULT_FILENAME = "file";

const encoder = new TextEncoder();
const UUID_PREFIX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/i;
const DIRECTORY = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;
// C0/C1 controls and bidi overrides (U+202E turns `gpj.exe` into `exe.jpg` on screen).
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_IN_KEY = /[/\\]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function utf8Length(value: string): number {
  return encoder.encode(value).byteLength;
}

/**
 * isValidDirectory() as the OpenAPI document states it (ECMA-262, as JSON Schema patterns are), or
 * the empty string, which every upload takes as no directory.
 */
export const DIRECTORY_PATTERN =
  "^$|^(?!\\.{1,2}(?:/|$))(?!.*/\\.{1,2}(?:/|$))[A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]+)*$";

/** One or more `[A-Za-z0-9._-]` segments, no `.`/`..` segment, no empty segment, bounded length. */
export function isValidDirectory(directory: string): boolean {
  if (directory.length > MAX_DIRECTORY_LENGTH || !DIRECTORY.test(directory)) return false;
  return directory.split("/").every((segment) => segment !== "." && segment !== "..");
}

/** The filename as it may appear in a key: no path separators or control characters, never empty. */
export function sanitizeFilename(filename: string): string {
  const cleaned = filename
    .replace(CONTROL, "_")
    .replace(UNSAFE_IN_KEY, "_")
    .replace(LONE_SURROGATE, "\ufffd");
  return cleaned.length > 0 ? cleaned : DEFAULT_FILENAME;
}

/** The longest prefix of `value` within `maxBytes` UTF-8 bytes, never splitting a code point. */
export function truncateUtf8(value: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of value) {
    const size = utf8Length(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return value.slice(0, end);
}

/** Shortens a name to `maxBytes`, keeping a short extension so the download still opens. */
function fitName(name: string, maxBytes: number): string {
  if (utf8Length(name) <= maxBytes) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot) : "";
  if (extension.length > 1 && utf8Length(extension) <= 16 && utf8Length(extension) < maxBytes) {
    return truncateUtf8(name.slice(0, dot), maxBytes - utf8Length(extension)) + extension;
  }
  return truncateUtf8(name, maxBytes);
}

/**
 * `[<directory>/]<uuid>-<sanitized filename>`, at most MAX_KEY_BYTES UTF-8 bytes; `uuid` is fresh per upload
 * and names its owner (ownerUuid()). The directory must already be valid (isValidDirectory).
 */
export function buildObjectKey(filename: string, directory: string | undefined, uuid: string) {
  const prefix = `${directory ? `${directory}/` : ""}${uuid}-`;
  const room = MAX_KEY_BYTES - utf8Length(prefix);
  return prefix + fitName(sanitizeFilename(filename), room);
}

export function isStorableKey(key: string): boolean {
  return key.length > 0 && utf8Length(key) <= MAX_KEY_BYTES;
}

/** Whose workspace holds the file under `key`: the owner its UUID carries, or null for a key from before shards. */
export function ownerOfKey(key: string): Owner | null {
  const uuid = UUID_PREFIX.exec(key.slice(key.lastIndexOf("/") + 1))?.[0].slice(0, -1);
  return uuid === undefined ? null : ownerOfUuid(uuid);
}

/** The display name of an object: the key without its directory and UUID prefix. */
export function fileNameFromKey(key: string): string {
  const base = key.slice(key.lastIndexOf("/") + 1);
  return base.replace(UUID_PREFIX, "") || base;
}

// RFC 8187 attr-char is ALPHA / DIGIT / "!#$&+-.^_`|~"; encodeURIComponent leaves '()* as they are.
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * `attachment; filename="<ascii>"; filename*=UTF-8''<utf-8>` (RFC 6266): control characters are
 * stripped; the ASCII fallback replaces non-ASCII, quotes, backslashes and `%` with `_`.
 */
export function contentDisposition(name: string): string {
  const clean = name.replace(CONTROL, "").replace(LONE_SURROGATE, "\ufffd") || DEFAULT_FILENAME;
  const ascii = clean.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(clean)}`;
}
