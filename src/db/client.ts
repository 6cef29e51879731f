import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** A database or one D1 session: drizzle's D1 driver only calls prepare() and batch(), which both have. */
export function createDb(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database, { schema, casing: "camelCase" });
}

export type Db = ReturnType<typeof createDb>;
