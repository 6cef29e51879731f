import { and, count, eq, gt, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  apiKeysTable,
  emailLinksTable,
  passkeysTable,
  passwordResetsTable,
  sessionsTable,
} from "../../db/credentials-schema";
import { NOW, userCredentialsTable, usersTable } from "../../db/schema";

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: usersTable.id, username: usersTable.username, email: usersTable.email })
    .from(usersTable)
    .where(eq(usersTable.email, email))
    .limit(1);
  return row ?? null;
}

const usable = (nowIso: string) =>
  and(isNull(passwordResetsTable.usedAt), gt(passwordResetsTable.expiresAt, nowIso));

/** Links of this user that could still be used. */
export async function countUsableResets(db: Db, userId: number, nowIso: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(passwordResetsTable)
    .where(and(eq(passwordResetsTable.userId, userId), usable(nowIso)));
  return row?.n ?? 0;
}

export async function insertReset(db: Db, reset: { tokenHash: string; userId: number; expiresAt: string }) {
  await db.insert(passwordResetsTable).values(reset);
}

/** The user a usable link belongs to, or null. */
export async function findUsableReset(db: Db, tokenHash: string, nowIso: string): Promise<number | null> {
  const [row] = await db
    .select({ userId: passwordResetsTable.userId })
    .from(passwordResetsTable)
    .where(and(eq(passwordResetsTable.tokenHash, tokenHash), usable(nowIso)))
    .limit(1);
  return row?.userId ?? null;
}

/** What a recovery ended: counted in D1 (OAuth grants live in KV and are counted apart). */
export interface RecoveredUser {
  id: number;
  username: string;
  email: string;
  sessions: number;
  apiKeys: number;
  passkeys: number;
}

/**
 * Sets the password of the link's user, if the link is still usable, in one batch: a recovery, so
 * every session ends, every token without a session is revoked (token version up), every API key is
 * revoked, every passkey is deleted (an intruder may have added one), a pending e-mail change is
 * dropped and the address marked verified (the link reached it), every OAuth grant ends (grant
 * version up: /mcp refuses a grant consented under an older one, whatever KV still holds), and this
 * and every other link of the user is spent. Each statement
 * finds the user through the link, so a link spent meanwhile (the same link confirmed twice at once)
 * changes nothing. Answers the user and what ended, or null.
 */
export async function completeReset(
  db: Db,
  tokenHash: string,
  passwordHash: string,
  nowIso: string,
): Promise<RecoveredUser | null> {
  const owner = db
    .select({ userId: passwordResetsTable.userId })
    .from(passwordResetsTable)
    .where(and(eq(passwordResetsTable.tokenHash, tokenHash), usable(nowIso)));
  const [, user, sessions, keys, passkeys] = await db.batch([
    db
      .update(userCredentialsTable)
      .set({ passwordHash, updatedAt: NOW })
      .where(eq(userCredentialsTable.userId, owner)),
    db
      .update(usersTable)
      .set({
        tokenVersion: sql`${usersTable.tokenVersion} + 1`,
        grantVersion: sql`${usersTable.grantVersion} + 1`,
        // The link reached this address: it is proven. A change to another address that waits for
        // its link is dropped (an intruder may have asked for it).
        emailVerifiedAt: NOW,
        pendingEmail: null,
        updatedAt: NOW,
      })
      .where(eq(usersTable.id, owner))
      .returning({ id: usersTable.id, username: usersTable.username, email: usersTable.email }),
    db.delete(sessionsTable).where(eq(sessionsTable.userId, owner)).returning({ id: sessionsTable.id }),
    db
      .update(apiKeysTable)
      .set({ revokedAt: NOW })
      .where(
        and(
          eq(apiKeysTable.userId, owner),
          isNull(apiKeysTable.revokedAt),
          or(isNull(apiKeysTable.expiresAt), gt(apiKeysTable.expiresAt, nowIso)),
        ),
      )
      .returning({ id: apiKeysTable.id }),
    db.delete(passkeysTable).where(eq(passkeysTable.userId, owner)).returning({ id: passkeysTable.id }),
    db
      .update(emailLinksTable)
      .set({ usedAt: NOW })
      .where(
        and(
          eq(emailLinksTable.userId, owner),
          eq(emailLinksTable.purpose, "change"),
          isNull(emailLinksTable.usedAt),
        ),
      ),
    // Last: the statements above still find the link usable.
    db
      .update(passwordResetsTable)
      .set({ usedAt: NOW })
      .where(and(eq(passwordResetsTable.userId, owner), isNull(passwordResetsTable.usedAt))),
  ]);
  const found = user[0];
  return found
    ? { ...found, sessions: sessions.length, apiKeys: keys.length, passkeys: passkeys.length }
    : null;
}

/** Removes links that can no longer be used (spent or expired); answers how many. */
export async function deleteSpentResets(db: Db, nowIso: string): Promise<number> {
  const rows = await db
    .delete(passwordResetsTable)
    .where(or(isNotNull(passwordResetsTable.usedAt), lte(passwordResetsTable.expiresAt, nowIso)))
    .returning({ tokenHash: passwordResetsTable.tokenHash });
  return rows.length;
}
