import type { Db } from "../db/client";
import type { Databases } from "../db/databases";
import { deletedKeysAmong } from "./file-trash.queries";
import { dbOfKey } from "./key-places";

/**
 * Which of these keys name a file in its workspace's trash: each asked of the data database its key names
 * (a key from before shards: where its workspace moved, else the directory's), one query per database. A
 * key naming no existing owner is nobody's file, so not a deleted one.
 */
export async function deletedKeysIn(dbs: Databases, keys: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(keys)];
  const places = await Promise.all(unique.map((key) => dbOfKey(dbs, key)));
  const byDb = new Map<Db, string[]>();
  unique.forEach((key, i) => {
    const db = places[i];
    if (db) byDb.set(db, [...(byDb.get(db) ?? []), key]);
  });
  const found = await Promise.all(
    [...byDb].map(async ([db, group]) => [...(await deletedKeysAmong(db, group))]),
  );
  return new Set(found.flat());
}
