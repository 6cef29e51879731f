import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { NOW } from "./now";

/**
 * Ranges of row ids, each handed to one data database for good (src/shards/id-blocks.ts): a shard takes a
 * fresh one, above every id handed out so far, whenever a workspace moves into it, so its ids never collide
 * with another shard's and a moved workspace's next ids (its change log's sync cursors among them) come
 * after all it had.
 */
export const idBlocksTable = sqliteTable("id_blocks_table", {
  block: integer().primaryKey({ autoIncrement: true }),
  shard: text().notNull(),
  claimedAt: text().notNull().default(NOW),
});
