import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { usersTable } from "../db/schema";
import type { AuthUser } from "../http/types";

/** The identity a gate needs: id, username, role and token version, or null when the user is gone. */
export async function findAuthUserById(db: Db, id: number): Promise<AuthUser | null> {
  const [row] = await db
    .select({
      id: usersTable.id,
      username: usersTable.username,
      role: usersTable.role,
      tokenVersion: usersTable.tokenVersion,
    })
    .from(usersTable)
    .where(eq(usersTable.id, id))
    .limit(1);
  return row ?? null;
}
