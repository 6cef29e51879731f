import type { Owner } from "../core/owner";
import type { Db } from "./client";
import type { Databases } from "./databases";
import type { Locator } from "./legacy-locators-schema";
import { locatedShard } from "./legacy-locators.queries";
import { WorkspaceOwnerGone } from "./workspace-errors";

/**
 * Where a row found by a key, token or id alone lives (issue 42): the data database of the owner the key
 * carries; for one made before shards (`null`: it carries none), the shard its workspace moved to (the
 * locator the mover recorded, one directory read), else the directory's own data tables, where it was
 * made. The locator is read first: between a move's switch and its cleanup the directory still holds stale
 * copies. Null when the owner it names does not exist (a made-up key): nothing of theirs is anywhere.
 */
export async function dbOfCarriedOwner(
  dbs: Databases,
  owner: Owner | null,
  locator: Locator,
): Promise<Db | null> {
  if (owner === null) {
    const moved = await locatedShard(dbs.directory, locator);
    return moved === undefined ? dbs.directory : dbs.shard(moved);
  }
  try {
    return await dbs.of(owner);
  } catch (err) {
    if (err instanceof WorkspaceOwnerGone) return null;
    throw err;
  }
}
