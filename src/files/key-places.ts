import type { Db } from "../db/client";
import { dbOfCarriedOwner } from "../db/carried-owner";
import type { Databases } from "../db/databases";
import { ownerOfKey } from "./file-keys";

/**
 * The data database holding the file (live or deleted) under `key`: its owner's, which the key names; a
 * key from before shards: where its workspace moved, else the directory's tables. Null for an owner who
 * does not exist.
 */
export function dbOfKey(dbs: Databases, key: string): Promise<Db | null> {
  return dbOfCarriedOwner(dbs, ownerOfKey(key), { kind: "file", ref: key });
}
