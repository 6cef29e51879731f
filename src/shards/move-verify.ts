import type { Owner } from "../core/owner";
import { FENCED_CHUNK_ROWS, readChunks, readyTables, type Cursors } from "./chunk-copy";
import type { MovedTable } from "./moved-tables";
import type { Row } from "./workspace-sql";

/** One side's count and checksum of a table (SHA-256 folded over its chunks in key order, hex). */
export interface TableSum {
  rows: number;
  checksum: string;
}

export interface TableCheck {
  table: string;
  source: TableSum;
  target: TableSum;
}

const encoder = new TextEncoder();

async function fold(sum: TableSum, rows: Row[]): Promise<TableSum> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(sum.checksum + JSON.stringify(rows)));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { rows: sum.rows + rows.length, checksum: hex };
}

const EMPTY: TableSum = { rows: 0, checksum: "" };

export const checkPasses = (check: TableCheck) =>
  check.source.rows === check.target.rows && check.source.checksum === check.target.checksum;

/** Adds the next chunk of every ready table, on both sides, to that table's counts and checksums. */
export async function verifyStep(
  source: D1Database,
  target: D1Database,
  tables: readonly MovedTable[],
  cursors: Cursors,
  checks: Record<string, TableCheck>,
  owner: Owner,
): Promise<{ cursors: Cursors; checks: Record<string, TableCheck> }> {
  const chunks = await readChunks(
    source,
    target,
    readyTables(tables, cursors),
    cursors,
    owner,
    FENCED_CHUNK_ROWS,
  );
  const nextCursors = { ...cursors };
  const nextChecks = { ...checks };
  for (const { table, sourceRows, targetRows, next } of chunks) {
    const check = checks[table.name] ?? { table: table.name, source: EMPTY, target: EMPTY };
    nextChecks[table.name] = {
      table: table.name,
      source: await fold(check.source, sourceRows),
      target: await fold(check.target, targetRows),
    };
    nextCursors[table.name] = { after: next, done: next === null };
  }
  return { cursors: nextCursors, checks: nextChecks };
}
