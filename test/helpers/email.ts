import { env } from "cloudflare:workers";
import type { SentEmail } from "../workers/email-outbox";
import { postJsonWithEnv } from "./storage";

// The EMAIL binding as vitest.config.ts wires it: test/workers/email-outbox.ts.
const outbox = env.EMAIL as unknown as { sentTo(to: string): Promise<SentEmail[]> };

/** Every e-mail sent to `to` so far, oldest first. */
export function sentTo(to: string): Promise<SentEmail[]> {
  return outbox.sentTo(to);
}

/**
 * What was sent to `to` but the verification link that registration sends (after its answer, so
 * at a moment a test does not choose): the mail of a reset, a recovery, a change.
 */
export async function accountMailTo(to: string): Promise<SentEmail[]> {
  return (await sentTo(to)).filter((email) => email.subject !== "Confirm your e-mail address");
}

/** The `token` of the reset link in an e-mail's text. */
export function resetTokenIn(email: SentEmail): string {
  const token = /[?&]token=([A-Za-z0-9_-]{43})\b/.exec(email.text)?.[1];
  if (!token) throw new Error(`no reset link in: ${email.text}`);
  return token;
}

/**
 * POST /api/auth/password-reset for `email` through app.fetch, waiting for the work it leaves
 * running; answers the token of the link e-mailed last.
 */
export async function requestResetLink(email: string): Promise<string> {
  const res = await postJsonWithEnv("/api/auth/password-reset", { email }, {});
  if (res.status !== 202) throw new Error(`password-reset: ${res.status} ${res.text}`);
  const last = (await accountMailTo(email)).at(-1);
  if (!last) throw new Error(`no e-mail to ${email}`);
  return resetTokenIn(last);
}

/**
 * The latest e-mail to `to` with `subject`, once more than `earlier` such e-mails have arrived: what a
 * request sends after its answer (`waitUntil`) may land a moment later. Fails after `timeoutMs`.
 */
export async function awaitEmail(
  to: string,
  subject: string,
  { timeoutMs = 5_000, earlier = 0 } = {},
): Promise<SentEmail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = (await sentTo(to)).filter((email) => email.subject === subject);
    if (found.length > earlier) return found.at(-1)!;
    if (Date.now() > until) throw new Error(`no e-mail "${subject}" to ${to} within ${timeoutMs} ms`);
    await scheduler.wait(20);
  }
}
