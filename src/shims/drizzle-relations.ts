// drizzle-orm's relational queries (`db.query.<table>.findMany()`), declared with `relations()` and
// turned on by passing a schema to `drizzle()`. This Worker passes none (src/db/client.ts) and queries
// with the SQL-like builder only, so `db.query` stays empty and none of this is reached: the build
// (scripts/build-worker.mjs) gives drizzle's modules this one in place of drizzle-orm/relations.js.
// The classes keep their entity kinds for `is()`; each function throws if ever called.
import { entityKind } from "drizzle-orm";

const NOT_BUNDLED =
  "drizzle-orm's relational queries are not bundled in this Worker: pass no schema to drizzle(), use the query builder";

function notBundled(): never {
  throw new Error(NOT_BUNDLED);
}

export class Relation {
  static readonly [entityKind]: string = "Relation";
  constructor() {
    notBundled();
  }
}

export class Relations {
  static readonly [entityKind]: string = "Relations";
  constructor() {
    notBundled();
  }
}

export class One extends Relation {
  static override readonly [entityKind]: string = "One";
}

export class Many extends Relation {
  static override readonly [entityKind]: string = "Many";
}

export const getOperators = notBundled;
export const getOrderByOperators = notBundled;
export const extractTablesRelationalConfig = notBundled;
export const relations = notBundled;
export const createOne = notBundled;
export const createMany = notBundled;
export const normalizeRelation = notBundled;
export const createTableRelationsHelpers = notBundled;
export const mapRelationalRow = notBundled;
