import type { Logger } from "../core/logger";
import { createDb } from "../db/client";
import { deleteSpentResets } from "./password-resets.queries";
import { SESSION_IDLE_SECONDS } from "./sessions";
import { deleteEndedSessions } from "./sessions.queries";

/**
 * The cron trigger's share for credentials: sessions nobody will refresh again (past their end, or
 * idle too long) go with their refresh tokens, and reset links that can no longer be used go. Use
 * checks the same ends on its own; this only keeps the tables from growing.
 */
export async function expireCredentials(env: Env, logger: Logger, now = new Date()): Promise<void> {
  const db = createDb(env.DB);
  const idleBefore = new Date(now.getTime() - SESSION_IDLE_SECONDS * 1000).toISOString();
  const sessions = await deleteEndedSessions(db, now.toISOString(), idleBefore);
  const resets = await deleteSpentResets(db, now.toISOString());
  if (sessions + resets > 0) logger.info("credentials_expired", { sessions, resets });
}
