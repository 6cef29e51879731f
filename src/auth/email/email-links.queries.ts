import type { BatchItem } from "drizzle-orm/batch";
import { and, count, eq, gt, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emailLinksTable, passwordResetsTable, type EmailLinkPurpose } from "../../db/credentials-schema";
import { NOW, usersTable } from "../../db/schema";

export type EmailLink = typeof emailLinksTable.$inferSelect;

const usable = (nowIso: string) => and(isNull(emailLinksTable.usedAt), gt(emailLinksTable.expiresAt, nowIso));

/** Links of this purpose that the user could still use. */
export async function countUsableLinks(
  db: Db,
  userId: number,
  purpose: EmailLinkPurpose,
  nowIso: string,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(emailLinksTable)
    .where(and(eq(emailLinksTable.userId, userId), eq(emailLinksTable.purpose, purpose), usable(nowIso)));
  return row?.n ?? 0;
}

export async function insertVerifyLink(
  db: Db,
  link: { tokenHash: string; userId: number; email: string; expiresAt: string },
) {
  await db.insert(emailLinksTable).values({ ...link, purpose: "verify" });
}

/** Spends every unused link of `purpose` (a newer request or a recovery replaces them). */
const spendLinks = (db: Db, userId: number, purpose: EmailLinkPurpose) =>
  db
    .update(emailLinksTable)
    .set({ usedAt: NOW })
    .where(
      and(
        eq(emailLinksTable.userId, userId),
        eq(emailLinksTable.purpose, purpose),
        isNull(emailLinksTable.usedAt),
      ),
    );

/**
 * Records `email` as the address the user asks to move to, in one batch: earlier change links are
 * spent (only the latest request can complete) and the new one stored.
 */
export async function startEmailChange(
  db: Db,
  link: { tokenHash: string; userId: number; email: string; expiresAt: string },
): Promise<void> {
  await db.batch([
    spendLinks(db, link.userId, "change"),
    db
      .update(usersTable)
      .set({ pendingEmail: link.email, updatedAt: NOW })
      .where(eq(usersTable.id, link.userId)),
    db.insert(emailLinksTable).values({ ...link, purpose: "change" }),
  ]);
}

/** Drops a pending change: the address stays, and the link sent to the other one is spent. */
export async function cancelEmailChange(db: Db, userId: number): Promise<void> {
  await db.batch([
    spendLinks(db, userId, "change"),
    db.update(usersTable).set({ pendingEmail: null, updatedAt: NOW }).where(eq(usersTable.id, userId)),
  ]);
}

export async function findUsableLink(db: Db, tokenHash: string, nowIso: string): Promise<EmailLink | null> {
  const [row] = await db
    .select()
    .from(emailLinksTable)
    .where(and(eq(emailLinksTable.tokenHash, tokenHash), usable(nowIso)))
    .limit(1);
  return row ?? null;
}

/** The user a confirmed link changed: their address as it now is, and the one it replaced. */
export interface ConfirmedEmail {
  userId: number;
  username: string;
  email: string;
  previousEmail: string;
}

/**
 * Uses a link, in one batch, if it is still usable and still describes the account: a "verify" link
 * proves `email` only while it is the account's address; a "change" link moves the account to
 * `email` only while that is the pending address. A change also spends every reset and verify link
 * (they went to the old address). Null when nothing matched; a UNIQUE violation (the address was
 * taken meanwhile) rejects the whole batch.
 */
export async function useLink(
  db: Db,
  link: EmailLink,
  nowIso: string,
  audit: BatchItem<"sqlite">,
): Promise<ConfirmedEmail | null> {
  const stillUsable = and(eq(emailLinksTable.tokenHash, link.tokenHash), usable(nowIso));
  const holder = db.select({ id: emailLinksTable.userId }).from(emailLinksTable).where(stillUsable);
  const [before] = await db
    .select({ email: usersTable.email })
    .from(usersTable)
    .where(eq(usersTable.id, link.userId))
    .limit(1);
  if (!before) return null;
  const proves =
    link.purpose === "verify"
      ? db
          .update(usersTable)
          .set({ emailVerifiedAt: NOW })
          .where(and(eq(usersTable.id, holder), eq(usersTable.email, link.email)))
      : db
          .update(usersTable)
          .set({ email: link.email, pendingEmail: null, emailVerifiedAt: NOW, updatedAt: NOW })
          .where(and(eq(usersTable.id, holder), eq(usersTable.pendingEmail, link.email)));
  // Only if the change happened: the account now has the link's address.
  const moved = db
    .select({ id: usersTable.id })
    .from(usersTable)
    .where(and(eq(usersTable.id, link.userId), eq(usersTable.email, link.email)));
  const resetsSpent =
    link.purpose === "change"
      ? [
          db
            .update(passwordResetsTable)
            .set({ usedAt: NOW })
            .where(and(eq(passwordResetsTable.userId, moved), isNull(passwordResetsTable.usedAt))),
          db
            .update(emailLinksTable)
            .set({ usedAt: NOW })
            .where(
              and(
                eq(emailLinksTable.userId, moved),
                eq(emailLinksTable.purpose, "verify"),
                isNull(emailLinksTable.usedAt),
              ),
            ),
        ]
      : [];
  const [changed] = await db.batch([
    proves.returning({ id: usersTable.id, username: usersTable.username, email: usersTable.email }),
    // Right after the change, so it is written only when the change was made.
    audit,
    ...resetsSpent,
    // Last: the statements above still find the link usable.
    spendLinks(db, link.userId, link.purpose),
  ]);
  const user = changed[0];
  return user
    ? { userId: user.id, username: user.username, email: user.email, previousEmail: before.email }
    : null;
}

/** Removes links that can no longer be used (spent or expired); answers how many. */
export async function deleteSpentEmailLinks(db: Db, nowIso: string): Promise<number> {
  const rows = await db
    .delete(emailLinksTable)
    .where(or(isNotNull(emailLinksTable.usedAt), lte(emailLinksTable.expiresAt, nowIso)))
    .returning({ tokenHash: emailLinksTable.tokenHash });
  return rows.length;
}
