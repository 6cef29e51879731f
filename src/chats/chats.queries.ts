import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { NOW } from "../db/schema";
import { chatsTable } from "../db/chats-schema";

const chats = chatsTable;
export type ChatRow = typeof chats.$inferSelect;
/** A row as its owner sees it: the owner is the caller. */
export type ChatView = Omit<ChatRow, "userId">;

const VIEW = {
  id: chats.id,
  title: chats.title,
  createdAt: chats.createdAt,
  lastActivityAt: chats.lastActivityAt,
  lastMessageAt: chats.lastMessageAt,
  preview: chats.preview,
  messageCount: chats.messageCount,
};

/** Where a list page starts: after this row in the list's order. */
export interface ChatPosition {
  lastActivityAt: string;
  id: string;
}

/**
 * A new chat of the user, unless they hold `maxChats` already: then null. The count and the insert are
 * one statement, so concurrent creates cannot pass the cap together.
 */
export async function insertChat(
  db: Db,
  chat: { id: string; userId: number; title: string | null },
  maxChats: number,
): Promise<ChatView | null> {
  // Drizzle lists every column of the table for INSERT ... SELECT, in declaration order.
  const [row] = await db
    .insert(chats)
    .select(
      sql`SELECT ${chat.id}, ${chat.userId}, ${chat.title}, ${NOW}, ${NOW}, NULL, NULL, 0
        WHERE (SELECT count(*) FROM ${chats} WHERE ${chats.userId} = ${chat.userId}) < ${maxChats}`,
    )
    .returning(VIEW);
  return row ?? null;
}

/** One page of the user's chats, most recent activity first; one extra row tells whether more follow. */
export function listChatsForUser(db: Db, userId: number, after: ChatPosition | undefined, limit: number) {
  // A row-value comparison: SQLite seeks the (userId, lastActivityAt, id) index to the cursor.
  const afterPosition =
    after && sql`(${chats.lastActivityAt}, ${chats.id}) < (${after.lastActivityAt}, ${after.id})`;
  return db
    .select(VIEW)
    .from(chats)
    .where(and(eq(chats.userId, userId), afterPosition))
    .orderBy(desc(chats.lastActivityAt), desc(chats.id))
    .limit(limit + 1);
}

/** The chat if it is in the user's index (ownership in the WHERE clause: anyone else's is not found). */
export async function findChatForUser(db: Db, id: string, userId: number): Promise<ChatView | null> {
  const [row] = await db
    .select(VIEW)
    .from(chats)
    .where(and(eq(chats.id, id), eq(chats.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** The user whose index holds the chat, or null. */
export async function chatOwner(db: Db, id: string): Promise<number | null> {
  const [row] = await db.select({ userId: chats.userId }).from(chats).where(eq(chats.id, id)).limit(1);
  return row?.userId ?? null;
}

/** The owner's title; null when the chat is not theirs. */
export async function renameChat(db: Db, id: string, userId: number, title: string) {
  const [row] = await db
    .update(chats)
    .set({ title })
    .where(and(eq(chats.id, id), eq(chats.userId, userId)))
    .returning(VIEW);
  return row ?? null;
}

/** A title from the first exchange, only while the chat has none: a name its owner gave always stays. */
export async function setTitleIfUntitled(db: Db, id: string, title: string): Promise<boolean> {
  const rows = await db
    .update(chats)
    .set({ title })
    .where(and(eq(chats.id, id), isNull(chats.title)))
    .returning({ id: chats.id });
  return rows.length > 0;
}

export async function titleOf(db: Db, id: string): Promise<{ title: string | null; userId: number } | null> {
  const [row] = await db
    .select({ title: chats.title, userId: chats.userId })
    .from(chats)
    .where(eq(chats.id, id))
    .limit(1);
  return row ?? null;
}

/** What the chat's transcript looks like now, as its Durable Object reports it after each change. */
export type ChatSummary = Pick<ChatRow, "lastActivityAt" | "lastMessageAt" | "preview" | "messageCount">;

/**
 * Updates an indexed chat's summary; a chat deleted meanwhile stays deleted (no row is created).
 * False when there is no row to update.
 */
export async function updateSummary(db: Db, id: string, summary: ChatSummary): Promise<boolean> {
  const rows = await db.update(chats).set(summary).where(eq(chats.id, id)).returning({ id: chats.id });
  return rows.length > 0;
}

/**
 * Records a `user-<id>[-<suffix>]` chat of that user in the index, or updates it: the chats clients
 * named themselves enter the index as they are used, so the list shows them and erasure finds them.
 */
export async function adoptChat(db: Db, id: string, userId: number, summary: ChatSummary): Promise<void> {
  await db
    .insert(chats)
    .values({ id, userId, ...summary })
    .onConflictDoUpdate({ target: chats.id, set: summary, setWhere: eq(chats.userId, userId) });
}
