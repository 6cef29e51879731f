import { and, eq } from "drizzle-orm";
import type { Db } from "./client";
import { legacyLocatorsTable, type Locator } from "./legacy-locators-schema";
import { workspacesTable } from "./workspaces-schema";

/** The shard of the workspace a key, token or id from before shards moved with; undefined if it never moved. */
export async function locatedShard(directory: Db, { kind, ref }: Locator): Promise<string | undefined> {
  const [row] = await directory
    .select({ shard: workspacesTable.shard })
    .from(legacyLocatorsTable)
    .innerJoin(workspacesTable, eq(workspacesTable.id, legacyLocatorsTable.workspaceId))
    .where(and(eq(legacyLocatorsTable.kind, kind), eq(legacyLocatorsTable.ref, ref)))
    .limit(1);
  return row?.shard;
}
