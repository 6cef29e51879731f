import type { BatchItem } from "drizzle-orm/batch";
import { and, count, desc, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { passkeysTable, usedPasskeyChallengesTable } from "../../db/credentials-schema";
import { usersTable } from "../../db/schema";

export type PasskeyRow = typeof passkeysTable.$inferSelect;
export type NewPasskey = Omit<PasskeyRow, "id" | "createdAt" | "lastUsedAt">;

// What lists and answers show: never the key material or the user handle.
const VIEW = {
  id: passkeysTable.id,
  name: passkeysTable.name,
  deviceType: passkeysTable.deviceType,
  backedUp: passkeysTable.backedUp,
  transports: passkeysTable.transports,
  createdAt: passkeysTable.createdAt,
  lastUsedAt: passkeysTable.lastUsedAt,
};
export type PasskeyView = Pick<PasskeyRow, keyof typeof VIEW>;

const mine = (id: number, userId: number) => and(eq(passkeysTable.id, id), eq(passkeysTable.userId, userId));

export async function countPasskeys(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeysTable).where(eq(passkeysTable.userId, userId));
  return row?.n ?? 0;
}

/** The user's credentials, for registration options to exclude (an authenticator registers once). */
export async function listCredentialIds(db: Db, userId: number) {
  return db
    .select({ credentialId: passkeysTable.credentialId, transports: passkeysTable.transports })
    .from(passkeysTable)
    .where(eq(passkeysTable.userId, userId));
}

/** A user's passkeys, newest first. */
export async function listPasskeys(db: Db, userId: number, offset: number, limit: number) {
  const owned = eq(passkeysTable.userId, userId);
  const [items, [total]] = await db.batch([
    db
      .select(VIEW)
      .from(passkeysTable)
      .where(owned)
      .orderBy(desc(passkeysTable.id))
      .limit(limit)
      .offset(offset),
    db.select({ value: count() }).from(passkeysTable).where(owned),
  ]);
  return { items, total: total?.value ?? 0 };
}

/** Names and dates of a user's passkeys, oldest first (the password-reset e-mail lists them). */
export async function passkeySummaries(db: Db, userId: number) {
  return db
    .select({
      name: passkeysTable.name,
      createdAt: passkeysTable.createdAt,
      lastUsedAt: passkeysTable.lastUsedAt,
    })
    .from(passkeysTable)
    .where(eq(passkeysTable.userId, userId))
    .orderBy(passkeysTable.id);
}

const spend = (db: Db, challenge: string, expiresAt: Date) =>
  db.insert(usedPasskeyChallengesTable).values({ challenge, expiresAt: expiresAt.toISOString() });

/**
 * The new passkey, with its challenge recorded as used, in one batch: a challenge used before (the
 * primary key) or a credential registered before (its UNIQUE index) writes neither.
 */
export async function insertPasskey(
  db: Db,
  passkey: NewPasskey,
  challenge: { challenge: string; expiresAt: Date },
  audit: BatchItem<"sqlite">,
): Promise<PasskeyView> {
  const [, rows] = await db.batch([
    spend(db, challenge.challenge, challenge.expiresAt),
    db.insert(passkeysTable).values(passkey).returning(VIEW),
    audit,
  ]);
  return rows[0] as PasskeyView;
}

/** A credential by its id, with its user's identity, for sign-in. */
export async function findCredential(db: Db, credentialId: string) {
  const [row] = await db
    .select({
      id: passkeysTable.id,
      credentialId: passkeysTable.credentialId,
      publicKey: passkeysTable.publicKey,
      userHandle: passkeysTable.userHandle,
      counter: passkeysTable.counter,
      transports: passkeysTable.transports,
      user: { id: usersTable.id, username: usersTable.username, tokenVersion: usersTable.tokenVersion },
    })
    .from(passkeysTable)
    .innerJoin(usersTable, eq(usersTable.id, passkeysTable.userId))
    .where(eq(passkeysTable.credentialId, credentialId))
    .limit(1);
  return row ?? null;
}

/**
 * A sign-in's writes, in one batch: the challenge recorded as used (a replay fails here, writing
 * nothing), then the passkey's counter (never lowered by a slower concurrent sign-in), backup state
 * and last use. False when the passkey was deleted meanwhile.
 */
export async function recordSignIn(
  db: Db,
  passkeyId: number,
  use: { counter: number; backedUp: boolean; nowIso: string },
  challenge: { challenge: string; expiresAt: Date },
): Promise<boolean> {
  const [, updated] = await db.batch([
    spend(db, challenge.challenge, challenge.expiresAt),
    db
      .update(passkeysTable)
      .set({
        counter: sql`max(${passkeysTable.counter}, ${use.counter})`,
        backedUp: use.backedUp,
        lastUsedAt: use.nowIso,
      })
      .where(eq(passkeysTable.id, passkeyId))
      .returning({ id: passkeysTable.id }),
  ]);
  return updated.length > 0;
}

/** Renames one of the user's passkeys; null when it is not theirs. */
export async function renamePasskey(db: Db, id: number, userId: number, name: string) {
  const [row] = await db.update(passkeysTable).set({ name }).where(mine(id, userId)).returning(VIEW);
  return row ?? null;
}

/** Deletes one of the user's passkeys, `audit` in the same batch; null when it is not theirs. */
export async function deletePasskey(db: Db, id: number, userId: number, audit: BatchItem<"sqlite">) {
  const [rows] = await db.batch([db.delete(passkeysTable).where(mine(id, userId)).returning(VIEW), audit]);
  return rows[0] ?? null;
}

/** Used challenges past their expiry: a replay of one would be refused as expired anyway. */
export async function deleteExpiredChallenges(db: Db, nowIso: string): Promise<number> {
  const rows = await db
    .delete(usedPasskeyChallengesTable)
    .where(lte(usedPasskeyChallengesTable.expiresAt, nowIso))
    .returning({ challenge: usedPasskeyChallengesTable.challenge });
  return rows.length;
}
