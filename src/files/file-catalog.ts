// Runs in the Worker (/mcp): one user's files and their teams' as an AI client lists and reads them, by resource URI.
import { base64 } from "../core/base64url";
import { decodeCursor, encodeCursor } from "../core/paging";
import { or } from "drizzle-orm";
import { ownerKey, type Owner } from "../core/owner";
import type { Db } from "../db/client";
import type { Databases } from "../db/databases";
import { decodeText, isTextLike, readHead, sizeLabel } from "./file-content";
import { isStorableKey } from "./file-keys";
import { dbOfKey } from "./key-places";
import { filesAmong, findFileByKey, listFilesWhere, type FileRow } from "./file-records.queries";
import { ownedBy, ownerOfRow, readableOwners } from "./file-owner";
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

// D1 binds at most 100 parameters: 90 keys a lookup.
const KEYS_PER_LOOKUP = 90;

/** One data database and the readable workspaces it holds. */
interface Place {
  db: Db;
  owners: Owner[];
}

/**
 * Where `userId`'s readable files are: each data database with the workspaces of theirs it holds (their
 * own, and each team's where their role reads), read from the directory once per catalog.
 */
async function placesOf(dbs: Databases, userId: number): Promise<Place[]> {
  const places = new Map<Db, Owner[]>();
  for (const owner of await readableOwners(dbs.directory, userId)) {
    const db = await dbs.of(owner);
    places.set(db, [...(places.get(db) ?? []), owner]);
  }
  return [...places].map(([db, owners]) => ({ db, owners }));
}

/**
 * The catalog of `userId`'s files and of their teams' (bound here: every read is the user's, with their
 * teams read from the directory once per catalog, a request).
 */
export function fileCatalog(dbs: Databases, bucket: R2Bucket, userId: number): FileCatalog {
  let places: Promise<Place[]> | undefined;
  const readable = () => (places ??= placesOf(dbs, userId));
  const mayRead = async (file: FileRow) => {
    const owner = ownerKey(ownerOfRow(file));
    return (await readable()).some((place) => place.owners.some((each) => ownerKey(each) === owner));
  };
  return {
    async page(cursor) {
      const before = cursor === undefined ? undefined : decodeCursor(cursor);
      if (before === null) return null;
      // Ids are unique across databases (scripts/lib/shard-sequences.mjs): one id order over all of them.
      const pages = await Promise.all(
        (await readable()).map(({ db, owners }) =>
          listFilesWhere(
            db,
            or(...owners.map((owner) => ownedBy(filesTable, owner)))!,
            before,
            RESOURCE_PAGE_SIZE,
          ),
        ),
      );
      const rows = pages.flat().toSorted((a, b) => b.id - a.id);
      const page = rows.slice(0, RESOURCE_PAGE_SIZE);
      const more = rows.length > RESOURCE_PAGE_SIZE;
      return { entries: page.map(entry), ...(more ? { nextCursor: encodeCursor(page.at(-1)!.id) } : {}) };
    },
    async read(uri) {
      const key = keyOfResourceUri(uri);
      const db = key === null || !isStorableKey(key) ? null : await dbOfKey(dbs, key);
      const file = db && key !== null ? await findFileByKey(db, key) : null;
      if (!file || !(await mayRead(file))) return { kind: "not_found" };
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
      // Each key is looked up in the workspace it names (one from before shards: the directory's tables).
      const byDb = new Map<Db, string[]>();
      for (const key of new Set(keys)) {
        const db = await dbOfKey(dbs, key);
        if (db) byDb.set(db, [...(byDb.get(db) ?? []), key]);
      }
      const found: FileEntry[] = [];
      for (const [db, group] of byDb) {
        for (let i = 0; i < group.length; i += KEYS_PER_LOOKUP) {
          for (const file of await filesAmong(db, group.slice(i, i + KEYS_PER_LOOKUP))) {
            if (await mayRead(file)) found.push(entry(file));
          }
        }
      }
      return found;
    },
  };
}
