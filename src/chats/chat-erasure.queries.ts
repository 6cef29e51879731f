import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/client";
import { chatsTable } from "../db/chats-schema";
import { aiUsageTable } from "../db/usage-schema";
import { queueUserAgents } from "./agent-wipes.queries";

/**
 * A deleted user's chats in `db`, their workspace's data database, in one batch: every agent holding their
 * data queued for a wipe under `erasureId` (each chat of the index, their own chat, their todo feed), then
 * the index rows and their AI usage. Runs again harmlessly (a second run queues wipes of empty instances).
 */
export async function eraseChatIndex(db: Db, userId: number, erasureId: string): Promise<void> {
  const statements: BatchItem<"sqlite">[] = [
    ...queueUserAgents(db, userId, erasureId),
    db.delete(chatsTable).where(eq(chatsTable.userId, userId)),
    db.delete(aiUsageTable).where(eq(aiUsageTable.userId, userId)),
  ];
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}
