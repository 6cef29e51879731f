import { drizzle } from "drizzle-orm/d1";

/**
 * A database or one D1 session: drizzle's D1 driver only calls prepare() and batch(), which both have.
 * No `schema`: nothing uses the relational query API, and building its config costs every request.
 */
export function createDb(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database, { casing: "camelCase" });
}

export type Db = ReturnType<typeof createDb>;
