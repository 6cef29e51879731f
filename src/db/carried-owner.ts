import type { Owner } from "../core/owner";
import type { Db } from "./client";
import type { Databases } from "./databases";
import { WorkspaceOwnerGone } from "./workspace-errors";

/**
 * Where a row found by a key, token or id alone lives (issue 42): the data database of the owner the key
 * carries, or, for one made before shards (`null`: it carries none), the directory's own data tables, where it
 * was made. Null when the owner it names does not exist (a made-up key): nothing of theirs is anywhere.
 */
export async function dbOfCarriedOwner(dbs: Databases, owner: Owner | null): Promise<Db | null> {
  if (owner === null) return dbs.directory;
  try {
    return await dbs.of(owner);
  } catch (err) {
    if (err instanceof WorkspaceOwnerGone) return null;
    throw err;
  }
}
