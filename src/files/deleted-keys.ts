import { ownerKey } from "../core/owner";
import { dbOfCarriedOwner } from "../db/carried-owner";
import type { Databases } from "../db/databases";
import { ownerOfKey } from "./file-keys";
import { deletedKeysAmong } from "./file-trash.queries";

/**
 * Which of these keys name a file in its workspace's trash: each asked of the data database its key names
 * (a key from before shards: the directory's), one query per workspace. A key naming no existing owner is
 * nobody's file, so not a deleted one.
 */
export async function deletedKeysIn(dbs: Databases, keys: readonly string[]): Promise<Set<string>> {
  const byOwner = new Map<string, string[]>();
  for (const key of new Set(keys)) {
    const owner = ownerOfKey(key);
    const group = owner === null ? "" : ownerKey(owner);
    byOwner.set(group, [...(byOwner.get(group) ?? []), key]);
  }
  const found = await Promise.all(
    [...byOwner.values()].map(async (group) => {
      const db = await dbOfCarriedOwner(dbs, ownerOfKey(group[0]!));
      return db ? [...(await deletedKeysAmong(db, group))] : [];
    }),
  );
  return new Set(found.flat());
}
