import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * `json_object(...)` of all of `table`'s columns, keyed by column name as D1 answers rows, so
 * `rowMapper` (src/db/prebuilt.ts) reads it back exactly as drizzle maps a row.
 */
export function jsonObjectOf(table: SQLiteTable): SQL {
  const pairs = Object.values(getTableColumns(table)).map((column) => {
    // Column names are the schema's own identifiers, never input.
    if (!/^\w+$/.test(column.name)) throw new Error(`unexpected column name ${column.name}`);
    return sql`${sql.raw(`'${column.name}'`)}, ${column}`;
  });
  return sql`json_object(${sql.join(pairs, sql`, `)})`;
}
