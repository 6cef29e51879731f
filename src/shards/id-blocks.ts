import { MOVED_TABLES } from "./moved-tables";

/**
 * Where blocks start: above the ranges every shard starts in (scripts/lib/shard-sequences.mjs: DB_SHARD_<n>
 * from (n + 1) * 2^40, so up to 255 shards), and below 2^53 for about two million blocks of 2^32 ids.
 */
const FIRST_BLOCK_START = 2 ** 48;
const ID_BLOCK_SIZE = 2 ** 32;

/** The tables whose ids AUTOINCREMENT hands out (todos' and files' ids are global in the API). */
const SEQUENCED = MOVED_TABLES.filter((t) => t.autoIncrement).map((t) => t.name);

/**
 * Takes a fresh block of ids for `shard` and moves its AUTOINCREMENT sequences to the block's start. The
 * block is above every id handed out anywhere so far, so the shard's next ids collide with no other
 * shard's and come after every id a workspace moving in brings along. Returns the block's first id.
 */
export async function claimIdBlock(directory: D1Database, shard: D1Database, name: string): Promise<number> {
  const claimed = await directory
    .prepare("INSERT INTO id_blocks_table (shard) VALUES (?1) RETURNING block")
    .bind(name)
    .first<{ block: number }>();
  if (!claimed) throw new Error(`no id block claimed for ${name}`);
  const start = FIRST_BLOCK_START + (claimed.block - 1) * ID_BLOCK_SIZE;
  await shard.batch(
    SEQUENCED.flatMap((table) => [
      shard
        .prepare(
          "INSERT INTO sqlite_sequence (name, seq) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?1)",
        )
        .bind(table, start),
      shard.prepare("UPDATE sqlite_sequence SET seq = ?2 WHERE name = ?1 AND seq < ?2").bind(table, start),
    ]),
  );
  return start;
}
