import type { Owner } from "../core/owner";
import { readChunk } from "./chunk-copy";
import type { MovedTable } from "./moved-tables";
import type { RowKey } from "./workspace-sql";

/** One side's running count and checksum of a table (SHA-256 folded over the chunks, hex). */
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

async function fold(sum: TableSum, rows: unknown[][]): Promise<TableSum> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(sum.checksum + JSON.stringify(rows)));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { rows: sum.rows + rows.length, checksum: hex };
}

export const emptyCheck = (table: string): TableCheck => ({
  table,
  source: { rows: 0, checksum: "" },
  target: { rows: 0, checksum: "" },
});

/** Adds one key range of both sides to a table's counts and checksums. */
export async function verifyChunk(
  source: D1Database,
  target: D1Database,
  table: MovedTable,
  owner: Owner,
  after: RowKey | null,
  check: TableCheck,
): Promise<{ next: RowKey | null; check: TableCheck }> {
  const { sourceRows, targetRows, next } = await readChunk(source, target, table, owner, after);
  return {
    next,
    check: { table: check.table, source: await fold(check.source, sourceRows), target: await fold(check.target, targetRows) },
  };
}

export const checkPasses = (check: TableCheck) =>
  check.source.rows === check.target.rows && check.source.checksum === check.target.checksum;
