// The EMAIL binding as the tests see it (an auxiliary worker in vitest.config.ts): every message goes
// on to miniflare's own simulation of the Email Service binding, which checks it as the real one does
// (sender, recipients, message shape) and answers the message id, and is kept here so tests can read
// what was sent.
import { WorkerEntrypoint } from "cloudflare:workers";

interface OutboxEnv {
  /** miniflare's simulated send_email binding. */
  EMAIL: SendEmail;
}

export interface SentEmail {
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
}

const sent: SentEmail[] = [];

export class EmailOutbox extends WorkerEntrypoint<OutboxEnv> {
  async send(message: EmailMessageBuilder): Promise<EmailSendResult> {
    const result = await this.env.EMAIL.send(message);
    sent.push({
      messageId: result.messageId,
      from: String(message.from),
      to: String(message.to),
      subject: message.subject,
      text: message.text ?? "",
    });
    return result;
  }

  /** What was sent to `to`, oldest first (every test file shares this worker: tests use fresh addresses). */
  sentTo(to: string): SentEmail[] {
    return sent.filter((email) => email.to === to);
  }
}
