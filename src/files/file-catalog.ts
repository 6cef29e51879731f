// Runs in the Worker (/mcp): one user's files and their teams' as an AI client lists and reads them, by resource URI.
import { base64 } from "../core/base64url";
import { decodeCursor, encodeCursor } from "../core/paging";
import type { Db } from "../db/client";
import { decodeText, isTextLike, readHead, sizeLabel } from "./file-content";
import { isStorableKey } from "./file-keys";
import { findReadableFile, listFilesWhere, readableFilesAmong, type FileRow } from "./file-records.queries";
import { readableBy } from "./file-owner";
import { filesTable } from "../db/files-schema";
import { downloadPath, fileResourceUri, keyOfResourceUri } from "./file-urls";

/** Files a resources/list page holds. */
export const RESOURCE_PAGE_SIZE = 50;
/** The largest file resources/read returns (as text, or base64 for anything else). */
export const RESOURCE_READ_MAX_BYTES = 4 * 1024 * 1024;

/** A file as a resource: what resources/list shows and a resource link names. */
export interface FileEntry {
  uri: string;
  name: string;
  mimeType: string;
  size: number;
  createdAt: string;
}

export type FileReading =
  | { kind: "text"; entry: FileEntry; text: string }
  | { kind: "blob"; entry: FileEntry; base64: string }
  | { kind: "not_found" }
  | { kind: "too_large"; message: string };

export interface FileCatalog {
  /** One page, newest first; null for a cursor this service did not make. */
  page(cursor: string | undefined): Promise<{ entries: FileEntry[]; nextCursor?: string } | null>;
  read(uri: string): Promise<FileReading>;
  /** The user's readable files among these keys, as entries (a todo may carry anyone's key: those are left out). */
  entriesOf(keys: string[]): Promise<FileEntry[]>;
}

const entry = (file: FileRow): FileEntry => ({
  uri: fileResourceUri(file.key),
  name: file.originalName,
  mimeType: file.contentType,
  size: file.size,
  createdAt: file.createdAt,
});

// D1 binds at most 100 parameters: the user's id (twice), the reading roles and 90 keys.
const KEYS_PER_LOOKUP = 90;

/**
 * The catalog of `userId`'s files and of their teams' (bound here: every read is the user's, with
 * their membership read in the same statement).
 */
export function fileCatalog(db: Db, bucket: R2Bucket, userId: number): FileCatalog {
  return {
    async page(cursor) {
      const before = cursor === undefined ? undefined : decodeCursor(cursor);
      if (before === null) return null;
      const rows = await listFilesWhere(db, readableBy(filesTable, userId), before, RESOURCE_PAGE_SIZE);
      const page = rows.slice(0, RESOURCE_PAGE_SIZE);
      const more = rows.length > RESOURCE_PAGE_SIZE;
      return { entries: page.map(entry), ...(more ? { nextCursor: encodeCursor(page.at(-1)!.id) } : {}) };
    },
    async read(uri) {
      const key = keyOfResourceUri(uri);
      const file = key === null || !isStorableKey(key) ? null : await findReadableFile(db, key, userId);
      if (!file) return { kind: "not_found" };
      if (file.size > RESOURCE_READ_MAX_BYTES) {
        return {
          kind: "too_large",
          message: `${file.originalName} is ${sizeLabel(file.size)}: resources/read returns files up to ${RESOURCE_READ_MAX_BYTES / 1024 / 1024} MiB. Download it from GET ${downloadPath(file.key)} instead.`,
        };
      }
      const head = await readHead(bucket, file, RESOURCE_READ_MAX_BYTES);
      if (!head) return { kind: "not_found" };
      return isTextLike(file.contentType, file.originalName)
        ? { kind: "text", entry: entry(file), text: decodeText(head) }
        : { kind: "blob", entry: entry(file), base64: base64(head.bytes) };
    },
    async entriesOf(keys) {
      const unique = [...new Set(keys)];
      const found: FileEntry[] = [];
      for (let i = 0; i < unique.length; i += KEYS_PER_LOOKUP) {
        const rows = await readableFilesAmong(db, userId, unique.slice(i, i + KEYS_PER_LOOKUP));
        found.push(...rows.map(entry));
      }
      return found;
    },
  };
}
