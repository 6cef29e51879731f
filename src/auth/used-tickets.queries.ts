import { lte } from "drizzle-orm";
import type { Db } from "../db/client";
import { usedTicketsTable } from "../db/credentials-schema";

/**
 * Records a connect ticket as used; false when it already was. One statement, so two upgrades racing
 * with the same ticket cannot both get true.
 */
export async function spendTicket(db: Db, id: string, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .insert(usedTicketsTable)
    .values({ id, expiresAt: expiresAt.toISOString() })
    .onConflictDoNothing()
    .returning({ id: usedTicketsTable.id });
  return rows.length === 1;
}

/** Drops used tickets past their expiry (no longer valid anyway); answers how many went. */
export async function deleteSpentTickets(db: Db, nowIso: string): Promise<number> {
  const rows = await db
    .delete(usedTicketsTable)
    .where(lte(usedTicketsTable.expiresAt, nowIso))
    .returning({ id: usedTicketsTable.id });
  return rows.length;
}
