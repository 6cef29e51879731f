import type { Owner } from "../core/owner";
import type { MovedTable, OwnerScope } from "./moved-tables";

// The SQL a move runs on one table for one workspace. Names come from the drizzle tables (never from
// input); rows travel as arrays in `columns` order, and whole chunks as one JSON parameter (D1 binds at
// most 100 parameters to a statement).

/** A row's primary key values, in `primaryKey` order. */
export type RowKey = readonly (string | number)[];
export type Row = readonly unknown[];

export interface Statement {
  sql: string;
  params: unknown[];
}

const q = (name: string) => `"${name}"`;

function predicate(scope: OwnerScope, owner: Owner, table: string): string | null {
  const col = (name: string) => `${q(table)}.${q(name)}`;
  switch (scope.by) {
    case "user":
      return owner.kind === "user" ? `${col("userId")} = ?1` : null;
    case "org":
      return owner.kind === "org" ? `${col("orgId")} = ?1` : null;
    case "userOrOrg":
      return owner.kind === "user"
        ? `${col("orgId")} IS NULL AND ${col("userId")} = ?1`
        : `${col("orgId")} = ?1`;
    case "parent": {
      const parentScope = predicate({ by: "userOrOrg" }, owner, scope.parent);
      return `${col(scope.column)} IN (SELECT ${q(scope.parentKey)} FROM ${q(scope.parent)} WHERE ${parentScope})`;
    }
  }
}

/** The workspace's rows in `table` (with ?1 its owner's id), or null when the table holds none of this kind of owner. */
export function ownerWhere(table: MovedTable, owner: Owner): string | null {
  return predicate(table.scope, owner, table.name);
}

export const ownerIdOf = (owner: Owner) => (owner.kind === "user" ? owner.userId : owner.orgId);

const keyTuple = (table: MovedTable) =>
  `(${table.primaryKey.map((c) => `${q(table.name)}.${q(c)}`).join(", ")})`;
const placeholders = (from: number, count: number) =>
  `(${Array.from({ length: count }, (_, i) => `?${from + i}`).join(", ")})`;

/**
 * The workspace's rows after `after` (exclusive) up to `through` (inclusive; null: no bound), in key
 * order, at most `limit` of them (null: all in the range).
 */
export function selectRows(
  table: MovedTable,
  owner: Owner,
  range: { after: RowKey | null; through: RowKey | null; limit: number | null },
): Statement {
  const where = [ownerWhere(table, owner) ?? "0"];
  const params: unknown[] = [ownerIdOf(owner)];
  const width = table.primaryKey.length;
  if (range.after) {
    where.push(`${keyTuple(table)} > ${placeholders(params.length + 1, width)}`);
    params.push(...range.after);
  }
  if (range.through) {
    where.push(`${keyTuple(table)} <= ${placeholders(params.length + 1, width)}`);
    params.push(...range.through);
  }
  const columns = table.columns.map((c) => `${q(table.name)}.${q(c)}`).join(", ");
  const order = table.primaryKey.map((c) => `${q(table.name)}.${q(c)}`).join(", ");
  const limit = range.limit === null ? "" : ` LIMIT ${range.limit}`;
  return {
    sql: `SELECT ${columns} FROM ${q(table.name)} WHERE ${where.join(" AND ")} ORDER BY ${order}${limit}`,
    params,
  };
}

/**
 * Writes `rows` as they are (an insert, or an update of the row with that key), firing the table's
 * update triggers as a plain write would. A child whose parent is not there yet is left for a later
 * pass (the final one runs with the source fenced, when every parent is there).
 */
export function upsertRows(table: MovedTable, rows: readonly Row[]): Statement {
  const values = table.columns.map((_, i) => `json_extract("value", '$[${i}]')`).join(", ");
  const rest = table.columns.filter((c) => !table.primaryKey.includes(c));
  const onConflict =
    rest.length === 0
      ? "DO NOTHING"
      : `DO UPDATE SET ${rest.map((c) => `${q(c)} = excluded.${q(c)}`).join(", ")}`;
  let where = "true";
  if (table.scope.by === "parent") {
    const { parent, parentKey, column } = table.scope;
    const at = table.columns.indexOf(column);
    where = `EXISTS (SELECT 1 FROM ${q(parent)} WHERE ${q(parent)}.${q(parentKey)} = json_extract("value", '$[${at}]'))`;
  }
  return {
    sql:
      `INSERT INTO ${q(table.name)} (${table.columns.map(q).join(", ")}) SELECT ${values} FROM json_each(?1) ` +
      `WHERE ${where} ON CONFLICT ${keyTuple(table).replaceAll(`${q(table.name)}.`, "")} ${onConflict}`,
    params: [JSON.stringify(rows)],
  };
}

/** Deletes the rows with these keys. */
export function deleteKeys(table: MovedTable, keys: readonly RowKey[]): Statement {
  const parts = table.primaryKey.map((_, i) => `json_extract("value", '$[${i}]')`).join(", ");
  return {
    sql: `DELETE FROM ${q(table.name)} WHERE ${keyTuple(table)} IN (SELECT ${parts} FROM json_each(?1))`,
    params: [JSON.stringify(keys)],
  };
}

/** Deletes up to `limit` of the workspace's rows in `table`. */
export function deleteSome(table: MovedTable, owner: Owner, limit: number): Statement {
  const where = ownerWhere(table, owner) ?? "0";
  return {
    sql: `DELETE FROM ${q(table.name)} WHERE rowid IN (SELECT rowid FROM ${q(table.name)} WHERE ${where} LIMIT ${limit})`,
    params: [ownerIdOf(owner)],
  };
}

/** The key of a row read by selectRows(). */
export function keyOf(table: MovedTable, row: Row): RowKey {
  return table.primaryKey.map((c) => row[table.columns.indexOf(c)] as string | number);
}

export const prepare = (db: D1Database, statement: Statement) =>
  db.prepare(statement.sql).bind(...statement.params);
