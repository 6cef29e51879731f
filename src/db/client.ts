import { drizzle } from "drizzle-orm/d1";

/** Column names are the schema's camelCase keys, in queries and in drizzle-kit's migrations. */
export const DB_CASING = "camelCase";

/**
 * A database or one D1 session: drizzle's D1 driver only calls prepare() and batch(), which both have.
 * No `schema`: nothing uses the relational query API, and building its config costs every request.
 */
export function createDb(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database, { casing: DB_CASING });
}

export type Db = ReturnType<typeof createDb>;
