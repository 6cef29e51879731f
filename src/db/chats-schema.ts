import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { NOW, ownerId } from "./schema";

// Who owns which chat, and which agent instances a delete left to wipe. Beside schema.ts
// (drizzle.config.ts reads both).

/**
 * The index of each user's chats: one row per ChatAgent instance a user owns (its id is the instance
 * name). The agents gate reads it before a socket or transcript read reaches a chat; the chat keeps
 * its summary here (src/chats/chat-summary.ts), so a list page never wakes a Durable Object.
 */
export const chatsTable = sqliteTable(
  "chats_table",
  {
    id: text().primaryKey(),
    userId: ownerId(),
    // Null until the first exchange titles it or its owner names it (a rename wins: src/chats/chat-titles.ts).
    title: text(),
    createdAt: text().notNull().default(NOW),
    // The list's order: creation, then every change of the transcript.
    lastActivityAt: text().notNull().default(NOW),
    lastMessageAt: text(),
    preview: text(),
    messageCount: integer().notNull().default(0),
  },
  (t) => [index("chats_user_activity_idx").on(t.userId, t.lastActivityAt, t.id)],
);

export const WIPED_AGENTS = ["chat-agent", "todo-feed-agent"] as const;
export type WipedAgent = (typeof WIPED_AGENTS)[number];

/**
 * Agent instances whose storage must be wiped: a deleted chat, every chat and the todo feed of a
 * deleted user, the feed of a deleted team. Queued in the batch that deletes their rows, so none is forgotten if the request
 * stops; a row goes once its instance is wiped (src/chats/agent-wipes.ts).
 */
export const pendingAgentWipesTable = sqliteTable("pending_agent_wipes_table", {
  id: integer().primaryKey({ autoIncrement: true }),
  // The request that queued it, so that request wipes its own rows (the cron takes any).
  erasureId: text().notNull(),
  agent: text({ enum: WIPED_AGENTS }).notNull(),
  name: text().notNull(),
});
