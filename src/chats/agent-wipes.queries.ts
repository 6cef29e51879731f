import { and, asc, count, eq, gt, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { chatsTable, pendingAgentWipesTable } from "../db/chats-schema";
import { orgOwner } from "../core/owner";
import { ownChatName } from "../auth/chat-names";
import { feedName } from "../core/feed-names";

const queue = pendingAgentWipesTable;
const chats = chatsTable;
export type QueuedWipe = typeof queue.$inferSelect;

/**
 * Statements that delete one of the user's chats from the index and queue its instance for a wipe, in
 * this order (the queue reads the row the delete removes). Run in one batch; the last one returns the
 * deleted row, none when the chat is not the user's.
 */
export function deleteChatStatements(db: Db, id: string, userId: number, erasureId: string) {
  const mine = and(eq(chats.id, id), eq(chats.userId, userId));
  return [
    db
      .insert(queue)
      .select(sql`SELECT NULL, ${erasureId}, 'chat-agent', ${chats.id} FROM ${chats} WHERE ${mine}`),
    db.delete(chats).where(mine).returning({ id: chats.id }),
  ] as const;
}

/**
 * Statements that queue every agent instance holding the user's data: each chat of their index, their
 * own chat `user-<id>` (reminders) and their todo feed. Run them in the batch that deletes the user,
 * before the cascade removes the rows they read.
 */
export function queueUserAgents(db: Db, userId: number, erasureId: string): BatchItem<"sqlite">[] {
  const own = ownChatName(userId);
  return [
    db.insert(queue).select(
      sql`SELECT NULL, ${erasureId}, 'chat-agent', ${chats.id} FROM ${chats}
          WHERE ${chats.userId} = ${userId} AND ${chats.id} <> ${own}`,
    ),
    db.insert(queue).values([
      { erasureId, agent: "chat-agent", name: own },
      { erasureId, agent: "todo-feed-agent", name: feedName(userId) },
    ]),
  ];
}

/**
 * The statement that queues the live feeds of these teams, named `org-<id>` as ownerKey() names them.
 * Run it in each team workspace's data database before the team's rows go.
 */
export function queueTeamFeeds(db: Db, orgIds: readonly [number, ...number[]], erasureId: string) {
  return db.insert(queue).values(
    orgIds.map((orgId) => ({
      erasureId,
      agent: "todo-feed-agent" as const,
      name: feedName(orgOwner(orgId)),
    })),
  );
}

/** The oldest queued wipes after `afterId`, of one request or of all. */
export function nextQueued(
  db: Db,
  erasureId: string | undefined,
  limit: number,
  afterId = 0,
): Promise<QueuedWipe[]> {
  return db
    .select()
    .from(queue)
    .where(and(erasureId === undefined ? undefined : eq(queue.erasureId, erasureId), gt(queue.id, afterId)))
    .orderBy(asc(queue.id))
    .limit(limit);
}

export async function dropQueued(db: Db, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.delete(queue).where(inArray(queue.id, ids));
}

export async function countQueued(db: Db, erasureId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(queue).where(eq(queue.erasureId, erasureId));
  return row?.n ?? 0;
}
