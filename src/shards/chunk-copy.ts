import type { Owner } from "../core/owner";
import { pastFence } from "./fences";
import { MOVED_TABLES, type MovedTable } from "./moved-tables";
import { deleteKeys, keyOf, ownerIdOf, ownerWhere, prepare, selectRows, upsertRows, type Row, type RowKey } from "./workspace-sql";

/** Rows read from each side per chunk: one chunk is one batch on the target. */
export const CHUNK_ROWS = 500;

/**
 * Tables whose writes log themselves into another by trigger: on the target, that log holds only the
 * entries copied from the source (their ids are the sync cursors clients hold), so the entries the
 * copy's own writes make there (ids from the target's fresh block, src/shards/id-blocks.ts) go in the
 * same batch.
 */
const LOGGED_BY_TRIGGERS: Record<string, string> = { todos_table: "todo_changes_table" };

export interface CopyScope {
  workspaceId: number;
  owner: Owner;
  /** The first id of the target's block for this move: anything of the workspace's at or above it, the copy wrote. */
  blockStart: number;
}

export interface ChunkOutcome {
  /** Where the next chunk starts; null when the table is done. */
  next: RowKey | null;
  written: number;
  deleted: number;
}

/** Both sides' rows of one key range: the source's next chunk, and the target's rows in the same range. */
export async function readChunk(source: D1Database, target: D1Database, table: MovedTable, owner: Owner, after: RowKey | null) {
  const sourceRows = await prepare(source, selectRows(table, owner, { after, through: null, limit: CHUNK_ROWS })).raw<unknown[]>();
  const last = sourceRows.length === CHUNK_ROWS ? sourceRows.at(-1) : undefined;
  const through = last ? keyOf(table, last) : null;
  const targetRows = await prepare(target, selectRows(table, owner, { after, through, limit: null })).raw<unknown[]>();
  return { sourceRows, targetRows, next: through };
}

/**
 * Makes the target's rows of one key range equal to the source's: writes what is missing or different,
 * deletes what the source no longer has. Run again over the same range, it writes nothing: a retried
 * chunk neither loses nor doubles a row.
 */
export async function copyChunk(
  source: D1Database,
  target: D1Database,
  table: MovedTable,
  scope: CopyScope,
  after: RowKey | null,
): Promise<ChunkOutcome> {
  const { sourceRows, targetRows, next } = await readChunk(source, target, table, scope.owner, after);
  const onTarget = new Map(targetRows.map((row) => [JSON.stringify(keyOf(table, row)), JSON.stringify(row)]));
  const changed: Row[] = [];
  for (const row of sourceRows) {
    const key = JSON.stringify(keyOf(table, row));
    if (onTarget.get(key) !== JSON.stringify(row)) changed.push(row);
    onTarget.delete(key);
  }
  const gone = [...onTarget.keys()].map((key) => JSON.parse(key) as RowKey);
  if (changed.length === 0 && gone.length === 0) return { next, written: 0, deleted: 0 };
  const writes: D1PreparedStatement[] = [];
  if (gone.length > 0) writes.push(prepare(target, deleteKeys(table, gone)));
  if (changed.length > 0) writes.push(prepare(target, upsertRows(table, changed)));
  const log = LOGGED_BY_TRIGGERS[table.name];
  const logTable = log ? MOVED_TABLES.find((t) => t.name === log) : undefined;
  if (logTable) {
    writes.push(
      target
        .prepare(`DELETE FROM "${logTable.name}" WHERE ${ownerWhere(logTable, scope.owner)} AND "id" >= ?2`)
        .bind(ownerIdOf(scope.owner), scope.blockStart),
    );
  }
  await pastFence(target, scope.workspaceId, writes);
  return { next, written: changed.length, deleted: gone.length };
}
