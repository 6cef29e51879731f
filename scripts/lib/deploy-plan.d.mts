import type { D1Database } from "./d1-migrations.mjs";
export function deployPlan(databases: Pick<D1Database, "binding" | "name">[], existing: string[]): string[][];
