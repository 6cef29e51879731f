import type { BatchItem } from "drizzle-orm/batch";
import { and, desc, eq, isNull, lte, ne, notInArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { refreshTokensTable, sessionsTable } from "../../db/credentials-schema";
import { NOW, usersTable } from "../../db/schema";
import { AUTH_USER } from "../auth-user.queries";

export type SessionRow = typeof sessionsTable.$inferSelect;

/**
 * A new session with its first refresh token, in one batch; the user's sessions beyond `keep` (the
 * least recently used) end in the same batch, so one account cannot pile up sessions.
 */
export async function insertSession(
  db: Db,
  session: SessionRow,
  tokenHash: string,
  keep: number,
  audit?: BatchItem<"sqlite">,
): Promise<void> {
  const newest = db
    .select({ id: sessionsTable.id })
    .from(sessionsTable)
    .where(eq(sessionsTable.userId, session.userId))
    // rowid breaks ties of the millisecond, so the new session is always among the newest.
    .orderBy(desc(sessionsTable.lastUsedAt), desc(sql`rowid`))
    .limit(keep);
  await db.batch([
    db.insert(sessionsTable).values(session),
    db.insert(refreshTokensTable).values({ tokenHash, sessionId: session.id }),
    db
      .delete(sessionsTable)
      .where(and(eq(sessionsTable.userId, session.userId), notInArray(sessionsTable.id, newest))),
    ...(audit ? [audit] : []),
  ]);
}

/** A refresh token with its session and user, or null when unknown (or its session has ended). */
export async function findRefreshToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      sessionId: sessionsTable.id,
      rotatedAt: refreshTokensTable.rotatedAt,
      lastUsedAt: sessionsTable.lastUsedAt,
      expiresAt: sessionsTable.expiresAt,
      user: AUTH_USER,
    })
    .from(refreshTokensTable)
    .innerJoin(sessionsTable, eq(sessionsTable.id, refreshTokensTable.sessionId))
    .innerJoin(usersTable, eq(usersTable.id, sessionsTable.userId))
    .where(eq(refreshTokensTable.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

export type RefreshTokenRow = NonNullable<Awaited<ReturnType<typeof findRefreshToken>>>;

/**
 * Spends `tokenHash` and makes `successorHash` the session's current token. Idempotent, so two
 * requests rotating the same token at once both end in the same state (the successor is derived,
 * not random: src/auth/sessions/sessions.ts).
 */
export async function rotateRefreshToken(
  db: Db,
  sessionId: string,
  tokenHash: string,
  successorHash: string,
) {
  await db.batch([
    db
      .update(refreshTokensTable)
      .set({ rotatedAt: NOW })
      .where(and(eq(refreshTokensTable.tokenHash, tokenHash), isNull(refreshTokensTable.rotatedAt))),
    db.insert(refreshTokensTable).values({ tokenHash: successorHash, sessionId }).onConflictDoNothing(),
    db.update(sessionsTable).set({ lastUsedAt: NOW }).where(eq(sessionsTable.id, sessionId)),
  ]);
}

/**
 * Ends one session (its refresh tokens go by cascade); with `userId`, only if it is that user's; with
 * `audit`, the account's trail records it in the same batch.
 */
export async function deleteSession(
  db: Db,
  sessionId: string,
  userId?: number,
  audit?: BatchItem<"sqlite">,
): Promise<boolean> {
  const mine = userId === undefined ? undefined : eq(sessionsTable.userId, userId);
  const [rows] = await db.batch([
    db
      .delete(sessionsTable)
      .where(and(eq(sessionsTable.id, sessionId), mine))
      .returning({ id: sessionsTable.id }),
    ...(audit ? [audit] : []),
  ]);
  return rows.length > 0;
}

/** The statement ending a user's sessions, all or all but `keep`, for a caller's batch. */
export function endSessions(db: Db, userId: number, keep?: string) {
  const others = keep === undefined ? undefined : ne(sessionsTable.id, keep);
  return db.delete(sessionsTable).where(and(eq(sessionsTable.userId, userId), others));
}

/** The statement ending a user's sessions when their role is about to become `role` (a real change). */
export function endSessionsOnRoleChange(db: Db, userId: number, role: string) {
  const changes = sql`exists (select 1 from ${usersTable} where ${usersTable.id} = ${userId} and ${usersTable.role} <> ${role})`;
  return db.delete(sessionsTable).where(and(eq(sessionsTable.userId, userId), changes));
}

/** A user's sessions, most recently used first. */
export function listSessions(db: Db, userId: number): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessionsTable)
    .where(eq(sessionsTable.userId, userId))
    .orderBy(desc(sessionsTable.lastUsedAt));
}

/** Removes sessions past their end (`expiresAt`) or unused since `idleBefore`; answers how many. */
export async function deleteEndedSessions(db: Db, nowIso: string, idleBefore: string): Promise<number> {
  const rows = await db
    .delete(sessionsTable)
    .where(or(lte(sessionsTable.expiresAt, nowIso), lte(sessionsTable.lastUsedAt, idleBefore)))
    .returning({ id: sessionsTable.id });
  return rows.length;
}
