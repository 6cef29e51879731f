import type { Owner } from "../core/owner";
import type { Locator } from "../db/legacy-locators-schema";
import { pastFence } from "./fences";
import { locatorsOf, recordLocators } from "./legacy-locators";
import { MOVED_TABLES, type MovedTable } from "./moved-tables";
import {
  deleteKeys,
  keyOf,
  ownerIdOf,
  ownerWhere,
  prepare,
  selectRows,
  upsertRows,
  type Row,
  type RowKey,
} from "./workspace-sql";

/**
 * Rows read from each side of one table per chunk: while the workspace takes writes, and once it is
 * fenced (larger chunks, fewer round trips: the fence lasts as long as the last pass and the verify).
 */
export const CHUNK_ROWS = 200;
export const FENCED_CHUNK_ROWS = 1_000;

/**
 * Tables whose writes log themselves into another by trigger: on the target, that log holds only the
 * entries copied from the source (their ids are the sync cursors clients hold), so the entries the
 * copy's own writes make there (ids from the target's fresh block, src/shards/id-blocks.ts) go in the
 * same batch.
 */
const LOGGED_BY_TRIGGERS: Record<string, string> = { todos_table: "todo_changes_table" };

/** Where a pass stands in one table. */
export interface Cursor {
  after: RowKey | null;
  done: boolean;
}
export type Cursors = Record<string, Cursor>;

export const startCursors = (tables: readonly MovedTable[]): Cursors =>
  Object.fromEntries(tables.map((t) => [t.name, { after: null, done: false }]));

export const passDone = (cursors: Cursors) => Object.values(cursors).every((c) => c.done);

/** The tables a step of a pass works on: not done, and what each comes after is complete. */
export const readyTables = (tables: readonly MovedTable[], cursors: Cursors) =>
  tables.filter((t) => !cursors[t.name]?.done && !(t.after && cursors[t.after]?.done === false));

export interface CopyScope {
  workspaceId: number;
  owner: Owner;
  /** The first id of the target's block for this move: anything of the workspace's at or above it, the copy wrote. */
  blockStart: number;
  chunkRows: number;
  /** Moving off the directory's legacy tables: the source is the directory, which records the locators. */
  locate: boolean;
}

export interface ChunkRows {
  table: MovedTable;
  sourceRows: Row[];
  targetRows: Row[];
  /** Where this table's next chunk starts; null when this was its last. */
  next: RowKey | null;
}

const rowsOf = (table: MovedTable, result: D1Result<Record<string, unknown>>): Row[] =>
  result.results.map((row) => table.columns.map((c) => row[c]));

/**
 * Both sides' rows of the next chunk of each table: the source's next `limit` rows, and the target's
 * rows in the same key range. Two round trips, whatever the number of tables.
 */
export async function readChunks(
  source: D1Database,
  target: D1Database,
  tables: readonly MovedTable[],
  cursors: Cursors,
  owner: Owner,
  limit: number,
): Promise<ChunkRows[]> {
  if (tables.length === 0) return [];
  const after = (t: MovedTable) => cursors[t.name]?.after ?? null;
  const fromSource = await source.batch<Record<string, unknown>>(
    tables.map((t) => prepare(source, selectRows(t, owner, { after: after(t), through: null, limit }))),
  );
  const chunks = tables.map((table, i) => {
    const sourceRows = rowsOf(table, fromSource[i]!);
    const last = sourceRows.length === limit ? sourceRows.at(-1) : undefined;
    return { table, sourceRows, next: last ? keyOf(table, last) : null };
  });
  const fromTarget = await target.batch<Record<string, unknown>>(
    chunks.map((c) =>
      prepare(target, selectRows(c.table, owner, { after: after(c.table), through: c.next, limit: null })),
    ),
  );
  return chunks.map((c, i) => ({ ...c, targetRows: rowsOf(c.table, fromTarget[i]!) }));
}

/** What makes the target's rows of one chunk equal to the source's: the rows to write, the keys to delete. */
function differences({ table, sourceRows, targetRows }: ChunkRows) {
  const onTarget = new Map(targetRows.map((row) => [JSON.stringify(keyOf(table, row)), JSON.stringify(row)]));
  const changed: Row[] = [];
  for (const row of sourceRows) {
    const key = JSON.stringify(keyOf(table, row));
    if (onTarget.get(key) !== JSON.stringify(row)) changed.push(row);
    onTarget.delete(key);
  }
  return { changed, gone: [...onTarget.keys()].map((key) => JSON.parse(key) as RowKey) };
}

export interface StepOutcome {
  cursors: Cursors;
  written: number;
  deleted: number;
}

/**
 * One step of a pass: makes the target's rows of the next chunk of every ready table equal to the
 * source's (writes what is missing or different, deletes what the source no longer has), in one batch.
 * Run again over the same chunks, it writes nothing: a retried step neither loses nor doubles a row.
 */
export async function copyStep(
  source: D1Database,
  target: D1Database,
  tables: readonly MovedTable[],
  cursors: Cursors,
  scope: CopyScope,
): Promise<StepOutcome> {
  const chunks = await readChunks(
    source,
    target,
    readyTables(tables, cursors),
    cursors,
    scope.owner,
    scope.chunkRows,
  );
  const writes: D1PreparedStatement[] = [];
  const locators: Locator[] = [];
  let written = 0;
  let deleted = 0;
  for (const chunk of chunks) {
    const { changed, gone } = differences(chunk);
    if (gone.length > 0) writes.push(prepare(target, deleteKeys(chunk.table, gone)));
    if (changed.length > 0) writes.push(prepare(target, upsertRows(chunk.table, changed)));
    if (scope.locate) locators.push(...locatorsOf(chunk.table, changed));
    const log = MOVED_TABLES.find((t) => t.name === LOGGED_BY_TRIGGERS[chunk.table.name]);
    if (log && changed.length + gone.length > 0) {
      writes.push(
        target
          .prepare(`DELETE FROM "${log.name}" WHERE ${ownerWhere(log, scope.owner)} AND "id" >= ?2`)
          .bind(ownerIdOf(scope.owner), scope.blockStart),
      );
    }
    written += changed.length;
    deleted += gone.length;
  }
  // Before the rows they locate: a retry after a crash between the two finds the rows still to write.
  if (locators.length > 0) await recordLocators(source, scope.workspaceId, locators).run();
  if (writes.length > 0) await pastFence(target, scope.workspaceId, writes);
  const next = { ...cursors };
  for (const chunk of chunks) next[chunk.table.name] = { after: chunk.next, done: chunk.next === null };
  return { cursors: next, written, deleted };
}
