import type { BatchItem } from "drizzle-orm/batch";
import type { Logger } from "../../core/logger";
import type { Db } from "../../db/client";
import type { EmailLinkPurpose } from "../../db/credentials-schema";
import { randomSecret, sha256Hex } from "../opaque-tokens";
import {
  countUsableLinks,
  findUsableLink,
  insertVerifyLink,
  startEmailChange,
  useLink,
  type ConfirmedEmail,
} from "./email-links.queries";
import {
  sendChangedEmail,
  sendChangeLinkEmail,
  sendChangeNoticeEmail,
  sendVerifyEmail,
} from "./email-messages";
import { pageLink } from "./page-links";

export const EMAIL_LINK_TTL_HOURS = 24;
/** Usable verification links per account at once: an inbox gets at most this many a day. */
export const MAX_USABLE_VERIFY_LINKS = 3;

interface Account {
  id: number;
  username: string;
  email: string;
}

const failure = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function newLink(now: Date) {
  const token = randomSecret();
  const expiresAt = new Date(now.getTime() + EMAIL_LINK_TTL_HOURS * 3_600_000).toISOString();
  return { token, tokenHash: await sha256Hex(token), expiresAt };
}

/** The confirmation page a link opens: the client on `origin` unless EMAIL_CONFIRM_URL names one. */
function confirmLink(env: Env, origin: string, token: string): string {
  return pageLink({ origin, page: "confirm-email", token, configured: env.EMAIL_CONFIRM_URL });
}

/** `npm run dev` only: the simulated e-mail is a file, so its link goes to the terminal too. */
function logLink(env: Env, logger: Logger, event: string, link: string) {
  if (env.LOG_RESET_LINKS === "true") logger.warn(event, { link });
}

/** Stores a link that proves the account's address; answers its token (for mailVerification). */
async function issueVerification(db: Db, account: Account, now: Date): Promise<string> {
  const { token, tokenHash, expiresAt } = await newLink(now);
  await insertVerifyLink(db, { tokenHash, userId: account.id, email: account.email, expiresAt });
  return token;
}

/** Sends a verification link; failures are logged, never thrown (it may run after the answer). */
async function mailVerification(env: Env, account: Account, link: string, logger: Logger): Promise<void> {
  try {
    await sendVerifyEmail(env, account, link, EMAIL_LINK_TTL_HOURS);
    logger.info("email_verification_sent", { userId: account.id });
  } catch (err) {
    logger.error("email_verification_failed", { userId: account.id, error: failure(err) });
  }
  logLink(env, logger, "email_verification_link", link);
}

/**
 * E-mails a new link that proves the account's address, opening the client on `origin` (the
 * request's). False, sending nothing, when the account holds MAX_USABLE_VERIFY_LINKS usable ones already.
 */
export async function sendVerification(
  env: Env,
  db: Db,
  account: Account,
  origin: string,
  logger: Logger,
  now = new Date(),
): Promise<boolean> {
  if ((await countUsableLinks(db, account.id, "verify", now.toISOString())) >= MAX_USABLE_VERIFY_LINKS) {
    return false;
  }
  const token = await issueVerification(db, account, now);
  await mailVerification(env, account, confirmLink(env, origin, token), logger);
  return true;
}

/**
 * A new account's verification link: stored before the answer (so the account never lacks one),
 * e-mailed after it (the returned promise, for waitUntil).
 */
export async function verifyNewAccount(
  env: Env,
  db: Db,
  account: Account,
  origin: string,
  logger: Logger,
): Promise<{ mail: Promise<void> }> {
  try {
    const token = await issueVerification(db, account, new Date());
    return { mail: mailVerification(env, account, confirmLink(env, origin, token), logger) };
  } catch (err) {
    // The account exists either way: `POST /api/auth/email/verify` sends a link later.
    logger.error("email_verification_failed", { userId: account.id, error: failure(err) });
    return { mail: Promise.resolve() };
  }
}

/**
 * Starts moving the account to `newEmail`: it becomes the pending address, a link goes to it (opening
 * the client on `origin`, the request's), and the
 * current address hears what is changing and how to stop it. The address itself changes only when
 * the link is used (confirmEmailLink).
 */
export async function requestEmailChange(
  env: Env,
  db: Db,
  account: Account,
  change: { newEmail: string; origin: string },
  logger: Logger,
  now = new Date(),
): Promise<{ notify: Promise<void> }> {
  const { newEmail, origin } = change;
  const { token, tokenHash, expiresAt } = await newLink(now);
  await startEmailChange(db, { tokenHash, userId: account.id, email: newEmail, expiresAt });
  logger.info("email_change_requested", { userId: account.id });
  const link = confirmLink(env, origin, token);
  logLink(env, logger, "email_change_link", link);
  const notify = Promise.all([
    sendChangeLinkEmail(env, { ...account, email: newEmail }, link, EMAIL_LINK_TTL_HOURS),
    sendChangeNoticeEmail(env, account, newEmail, EMAIL_LINK_TTL_HOURS),
  ]).then(
    () => undefined,
    (err: unknown) => logger.error("email_change_mail_failed", { userId: account.id, error: failure(err) }),
  );
  return { notify };
}

export type LinkAudit = (userId: number, purpose: EmailLinkPurpose) => BatchItem<"sqlite">;

export type EmailConfirmation =
  | { ok: true; purpose: EmailLinkPurpose; confirmed: ConfirmedEmail }
  | { ok: false; reason: "invalid" };

/**
 * Uses a verification or change link; `invalid` when it is unknown, spent, expired or out of date.
 * `audit` makes the account trail's entry for the link's user and purpose, written in the same batch.
 */
export async function confirmEmailLink(
  db: Db,
  token: string,
  audit: LinkAudit,
  now = new Date(),
): Promise<EmailConfirmation> {
  const nowIso = now.toISOString();
  const link = await findUsableLink(db, await sha256Hex(token), nowIso);
  if (!link) return { ok: false, reason: "invalid" };
  const confirmed = await useLink(db, link, nowIso, audit(link.userId, link.purpose));
  return confirmed ? { ok: true, purpose: link.purpose, confirmed } : { ok: false, reason: "invalid" };
}

/** The old address hears that the change is done; a failure is logged. */
export async function noticeEmailChanged(env: Env, confirmed: ConfirmedEmail, logger: Logger): Promise<void> {
  try {
    await sendChangedEmail(
      env,
      { email: confirmed.previousEmail, username: confirmed.username },
      confirmed.email,
    );
  } catch (err) {
    logger.error("email_changed_notice_failed", { userId: confirmed.userId, error: failure(err) });
  }
}
