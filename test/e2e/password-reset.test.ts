// The password-reset e-mail under `wrangler dev --local`: the EMAIL binding is wrangler's own
// simulation (nothing leaves the machine), and the message is read back from the local explorer's
// list of sent e-mails, as a developer would read it. Then the link's token sets the password.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler-dev.mjs";
import { fromFreshIp } from "../helpers/client-ip";
import { signUpAt } from "./sign-up";

const SENT = "/cdn-cgi/local/explorer/api/local/email/sending";

let worker: WranglerDev;
beforeAll(async () => {
  worker = await startWranglerDev();
});
afterAll(() => worker?.stop());

interface SentSummary {
  messageId: string;
  to: string[];
  subject: string;
}

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(`${worker.url}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...fromFreshIp(),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The text of the e-mail sent to `to`, once the dev server has recorded it (polls for up to 10 s). */
async function textSentTo(to: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const list = (await (await fetch(`${worker.url}${SENT}`)).json()) as { result: SentSummary[] };
    const sent = list.result.find((email) => email.to.includes(to));
    if (sent) {
      const id = sent.messageId.replace(/^<|>$/g, "");
      const detail = await fetch(`${worker.url}${SENT}?email_id=${encodeURIComponent(id)}`);
      const { result } = (await detail.json()) as { result: SentSummary & { text?: string } };
      expect(result.subject).toBe("Reset your password");
      return result.text ?? "";
    }
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("password reset under wrangler dev --local", () => {
  it("e-mails a link through the simulated Email Service; its token sets the password once", async () => {
    const user = await signUpAt(worker.url);
    // The address signUpAt registers.
    const email = `${user.username}@example.test`;
    const unknown = `nobody-${crypto.randomUUID()}@example.test`;
    const [known, other] = [
      await post("/api/auth/password-reset", { email }),
      await post("/api/auth/password-reset", { email: unknown }),
    ];
    expect(known.status).toBe(202);
    expect(other).toEqual(known);

    const text = await textSentTo(email);
    const token = /[?&]token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
    expect(token, text).toBeDefined();
    expect(text).toContain("http://localhost:5173/#/reset-password?token=");

    const done = await post("/api/auth/password-reset/confirm", { token, password: "set from the e-mail" });
    expect(done).toEqual({
      status: 200,
      body: { success: true, data: { userId: user.userId, username: user.username } },
    });
    const again = await post("/api/auth/password-reset/confirm", { token, password: "set from the e-mail" });
    expect(again.status).toBe(400);
    expect((await post("/api/auth/logout", undefined, user.token)).status).toBe(401);
    const login = await post("/api/login", { username: user.username, password: "set from the e-mail" });
    expect(login.status).toBe(201);
  });
});
