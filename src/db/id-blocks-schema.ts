import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { NOW } from "./now";

/**
 * Ranges of row ids, each handed to one data database for good (src/shards/id-blocks.ts): block n is
 * [n * 2^32, (n + 1) * 2^32). Block 0 is the directory's own (workspaces made before shards). A shard
 * takes one on first use and a fresh one whenever a workspace moves into it, so ids never collide across
 * shards and a moved workspace's next ids (its change log's sync cursors among them) come after all it had.
 */
export const idBlocksTable = sqliteTable("id_blocks_table", {
  block: integer().primaryKey({ autoIncrement: true }),
  shard: text().notNull(),
  claimedAt: text().notNull().default(NOW),
});
