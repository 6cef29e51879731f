import type { Logger } from "../../core/logger";
import type { Db } from "../../db/client";
import { randomSecret, sha256Hex } from "../opaque-tokens";
import { passkeySummaries } from "../passkeys/passkeys.queries";
import { hashPassword } from "./passwords";
import {
  completeReset,
  countUsableResets,
  findUsableReset,
  findUserByEmail,
  insertReset,
  type RecoveredUser,
} from "./password-resets.queries";
import { pageLink } from "../email/page-links";
import { sendRecoveryEmail, sendResetEmail } from "./reset-email";

export const RESET_TTL_MINUTES = 30;
/** Usable links per account at once: an inbox gets at most this many per half hour, whoever asks. */
export const MAX_USABLE_RESETS = 3;

/**
 * The work behind POST /api/auth/password-reset, run after the answer is sent so that a known and an
 * unknown address get the same answer in the same time: for a known address, a one-time link valid
 * RESET_TTL_MINUTES, e-mailed with the account's passkeys (which using it deletes). The link opens
 * the client on `origin` (the request's) unless PASSWORD_RESET_URL names a page. Failures are logged,
 * never thrown (nobody is waiting for them).
 */
export async function sendResetLink(
  env: Env,
  db: Db,
  request: { email: string; origin: string },
  logger: Logger,
  now = new Date(),
): Promise<void> {
  const { email, origin } = request;
  try {
    const user = await findUserByEmail(db, email);
    if (!user) return logger.info("password_reset_unknown_email");
    const nowIso = now.toISOString();
    if ((await countUsableResets(db, user.id, nowIso)) >= MAX_USABLE_RESETS) {
      return logger.warn("password_reset_throttled", { userId: user.id });
    }
    const token = randomSecret();
    const expiresAt = new Date(now.getTime() + RESET_TTL_MINUTES * 60_000).toISOString();
    await insertReset(db, { tokenHash: await sha256Hex(token), userId: user.id, expiresAt });
    const link = pageLink({ origin, page: "reset-password", token, configured: env.PASSWORD_RESET_URL });
    await sendResetEmail(env, user, link, RESET_TTL_MINUTES, await passkeySummaries(db, user.id));
    logger.info("password_reset_sent", { userId: user.id });
    // `npm run dev` only: the simulated e-mail is a file, so its link goes to the terminal too (a
    // warning, whatever LOG_LEVEL: a link in a log is a password for whoever reads it).
    if (env.LOG_RESET_LINKS === "true") logger.warn("password_reset_link", { link });
  } catch (err) {
    logger.error("password_reset_failed", { error: err instanceof Error ? err.message : String(err) });
  }
}

/** What an account recovery ended; `oauthGrants` is null when KV could not count them (they ended all the same). */
export interface RecoveryEnded {
  sessions: number;
  apiKeys: number;
  passkeys: number;
  oauthGrants: number | null;
}

/**
 * Revokes the grants' records (and their tokens) in KV. They are already void by the grant version
 * the reset raised, so a KV failure is logged, not answered: the records then expire on their own.
 */
async function revokeGrantRecords(env: Env, userId: number, logger: Logger): Promise<number | null> {
  try {
    const { revokeAllGrants } = await import("../oauth/oauth-grants");
    return await revokeAllGrants(env, userId);
  } catch (err) {
    logger.error("password_reset_grants_failed", {
      userId,
      error: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
}

/**
 * Recovers an account through a reset link: sets the new password and ends everything that could
 * still act for the account (sessions, tokens, API keys, passkeys, OAuth grants), so whoever held it
 * before is out. Null when the link is unknown, spent or expired; an unusable link costs no password derivation.
 */
export async function confirmReset(
  env: Env,
  db: Db,
  token: string,
  password: string,
  logger: Logger,
  now = new Date(),
): Promise<{ user: RecoveredUser; ended: RecoveryEnded } | null> {
  const tokenHash = await sha256Hex(token);
  const nowIso = now.toISOString();
  if ((await findUsableReset(db, tokenHash, nowIso)) === null) return null;
  const user = await completeReset(db, tokenHash, await hashPassword(password), nowIso);
  if (!user) return null;
  const oauthGrants = await revokeGrantRecords(env, user.id, logger);
  const { sessions, apiKeys, passkeys } = user;
  return { user, ended: { sessions, apiKeys, passkeys, oauthGrants } };
}

/** The owner hears that the account was recovered and what that ended; a failure is logged. */
export async function sendRecoveryNotice(
  env: Env,
  user: RecoveredUser,
  ended: RecoveryEnded,
  logger: Logger,
): Promise<void> {
  try {
    await sendRecoveryEmail(env, user, ended);
  } catch (err) {
    logger.error("password_reset_notice_failed", {
      userId: user.id,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
