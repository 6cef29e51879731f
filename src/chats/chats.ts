// The chat index as the API and other Workers use it: every read and write is one user's own.
import { Failure } from "../core/failures";
import type { Logger } from "../core/logger";
import type { Db } from "../db/client";
import { deleteChatStatements, wipeNowIfFew } from "./agent-wipes";
import { encodeChatCursor } from "./chat-cursor";
import { forgetChatOwner } from "./chat-owners";
import { newChatId } from "./chat-ids";
import * as queries from "./chats.queries";

/** Chats one user may keep: each is a row here and a Durable Object's storage. */
export const MAX_CHATS = 10_000;

export class TooManyChatsError extends Failure {
  readonly kind = "conflict";

  constructor() {
    super(`You have ${MAX_CHATS} chats, the most one user may keep: delete some first`);
    this.name = "TooManyChatsError";
  }
}

export async function createChat(db: Db, userId: number, title: string | null): Promise<queries.ChatView> {
  const chat = await queries.insertChat(db, { id: newChatId(userId), userId, title }, MAX_CHATS);
  if (!chat) throw new TooManyChatsError();
  return chat;
}

export interface ChatPage {
  items: queries.ChatView[];
  nextCursor: string | null;
}

/** One page of the user's chats, most recent activity first, after `after`. */
export async function listChats(
  db: Db,
  userId: number,
  after: queries.ChatPosition | undefined,
  limit: number,
): Promise<ChatPage> {
  const rows = await queries.listChatsForUser(db, userId, after, limit);
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeChatCursor(items.at(-1)!) : null };
}

/**
 * Deletes one of the user's chats: its index row and, in the same batch, a queued wipe of its agent,
 * which runs now (the cron retries it if it fails). Null when the chat is not theirs.
 */
export async function deleteChat(
  env: Env,
  db: Db,
  userId: number,
  id: string,
  logger: Logger,
): Promise<{ id: string; pending: boolean } | null> {
  const erasureId = crypto.randomUUID();
  const [queue, remove] = deleteChatStatements(db, id, userId, erasureId);
  const [, deleted] = await db.batch([queue, remove]);
  if (deleted.length === 0) return null;
  forgetChatOwner(id);
  const { pending } = await wipeNowIfFew(env, db, erasureId, logger);
  return { id, pending };
}
