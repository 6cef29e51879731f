import type { Context } from "hono";
import type { Db } from "../db/client";
import { userOwner } from "../core/owner";
import type { AuthedEnv } from "./types";

/** The data database of the caller's personal workspace (one directory read per request, src/db/databases.ts). */
export function ownDb(c: Context<AuthedEnv>): Promise<Db> {
  return c.var.dbs.of(userOwner(c.var.user.id));
}
