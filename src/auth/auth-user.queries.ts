import { and, eq, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeysTable, sessionsTable } from "../db/credentials-schema";
import { usersTable } from "../db/schema";
import type { AuthUser } from "./credentials";

// What the gates read: one round trip per lookup, the user always joined in.

/** The columns of an AuthUser, for every query that joins the user in. */
export const AUTH_USER = {
  id: usersTable.id,
  username: usersTable.username,
  role: usersTable.role,
  tokenVersion: usersTable.tokenVersion,
  grantVersion: usersTable.grantVersion,
};

/** The identity a gate needs: id, username, role and token and grant versions, or null when the user is gone. */
export async function findAuthUserById(db: Db, id: number): Promise<AuthUser | null> {
  const [row] = await db.select(AUTH_USER).from(usersTable).where(eq(usersTable.id, id)).limit(1);
  return row ?? null;
}

export interface SessionHolder {
  user: AuthUser;
  /** Null when the session has ended (or never was this user's). */
  sessionExpiresAt: string | null;
}

/** The user and the end of their session `sessionId`; null when the user is gone. */
export async function findSessionHolder(
  db: Db,
  userId: number,
  sessionId: string,
): Promise<SessionHolder | null> {
  const [row] = await db
    .select({ ...AUTH_USER, sessionExpiresAt: sessionsTable.expiresAt })
    .from(usersTable)
    .leftJoin(sessionsTable, and(eq(sessionsTable.id, sessionId), eq(sessionsTable.userId, usersTable.id)))
    .where(eq(usersTable.id, userId))
    .limit(1);
  if (!row) return null;
  const { sessionExpiresAt, ...user } = row;
  return { user, sessionExpiresAt };
}

export interface KeyHolder {
  user: AuthUser;
  key: Pick<typeof apiKeysTable.$inferSelect, "id" | "scopes" | "expiresAt" | "revokedAt">;
}

/** An API key (by `where`: its hash, or its id and user) and its user, or null. */
export async function findKeyHolder(db: Db, where: SQL | undefined): Promise<KeyHolder | null> {
  const [row] = await db
    .select({
      user: AUTH_USER,
      key: {
        id: apiKeysTable.id,
        scopes: apiKeysTable.scopes,
        expiresAt: apiKeysTable.expiresAt,
        revokedAt: apiKeysTable.revokedAt,
      },
    })
    .from(apiKeysTable)
    .innerJoin(usersTable, eq(usersTable.id, apiKeysTable.userId))
    .where(where)
    .limit(1);
  return row ?? null;
}
