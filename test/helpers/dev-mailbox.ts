// The e-mails a `wrangler dev --local` server "sent": its Email Service simulation keeps them, and the
// local explorer lists them. For tests in Node (e2e, browser) against such a server.

const SENT = "/cdn-cgi/local/explorer/api/local/email/sending";

interface SentSummary {
  messageId: string;
  to: string[];
  subject: string;
  sentAt: string;
}

/**
 * The subject and text of the e-mail with `subject` sent to `to` (the newest, when several), once the
 * server has recorded it (polls up to 10 s).
 */
export async function emailSentTo(
  baseUrl: string,
  to: string,
  subject: string,
): Promise<{ subject: string; text: string }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const list = (await (await fetch(`${baseUrl}${SENT}`)).json()) as { result: SentSummary[] };
    const matching = list.result.filter((email) => email.to.includes(to) && email.subject === subject);
    const sent = matching.toSorted((a, b) => a.sentAt.localeCompare(b.sentAt)).at(-1);
    if (sent) {
      const id = sent.messageId.replace(/^<|>$/g, "");
      const detail = await fetch(`${baseUrl}${SENT}?email_id=${encodeURIComponent(id)}`);
      const { result } = (await detail.json()) as { result: SentSummary & { text?: string } };
      return { subject: result.subject, text: result.text ?? "" };
    }
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The link in a password-reset e-mail's text. */
export function resetLinkIn(text: string): string {
  const link = /\S+[?&]token=[A-Za-z0-9_-]{43}/.exec(text)?.[0];
  if (!link) throw new Error(`no reset link in: ${text}`);
  return link;
}
