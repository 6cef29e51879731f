import { sql } from "drizzle-orm";

/**
 * The current time as every timestamp column stores it: ISO 8601 UTC with milliseconds. Its own module
 * so the schema modules can refer to each other's tables (schema.ts and orgs-schema.ts do).
 */
export const NOW = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
