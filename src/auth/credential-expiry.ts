import { openDatabases } from "../db/databases";
import { deleteSpentEmailLinks } from "./email/email-links.queries";
import { deleteExpiredChallenges } from "./passkeys/passkeys.queries";
import { deleteSpentResets } from "./passwords/password-resets.queries";
import { SESSION_IDLE_SECONDS } from "./sessions/sessions";
import { deleteEndedSessions } from "./sessions/sessions.queries";
import { deleteSpentTickets } from "./used-tickets.queries";

/**
 * The cron trigger's share for credentials: sessions nobody will refresh again (past their end, or
 * idle too long) go with their refresh tokens; reset, verification and e-mail change links that can no
 * longer be used, and used passkey challenges and connect tickets past their expiry, go. Use
 * checks the same ends on its own; this only keeps the tables from growing. Answers how many rows went.
 */
export async function expireCredentials(env: Env, now = new Date()): Promise<number> {
  const db = openDatabases(env).directory;
  const idleBefore = new Date(now.getTime() - SESSION_IDLE_SECONDS * 1000).toISOString();
  const sessions = await deleteEndedSessions(db, now.toISOString(), idleBefore);
  const resets = await deleteSpentResets(db, now.toISOString());
  const emailLinks = await deleteSpentEmailLinks(db, now.toISOString());
  const challenges = await deleteExpiredChallenges(db, now.toISOString());
  const tickets = await deleteSpentTickets(db, now.toISOString());
  return sessions + resets + emailLinks + challenges + tickets;
}
