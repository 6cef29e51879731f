// The password-reset e-mail under `wrangler dev --local`: the EMAIL binding is wrangler's own
// simulation (nothing leaves the machine), and the message is read back from the local explorer's
// list of sent e-mails, as a developer would read it. Then the link's token sets the password.
import { describe, expect, it } from "vitest";
import { sharedWorker } from "./shared-worker";
import { fromFreshIp } from "../helpers/client-ip";
import { emailSentTo, resetLinkIn } from "../helpers/dev-mailbox";
import { signUpAt } from "./sign-up";

const worker = sharedWorker();

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

    const { text } = await emailSentTo(worker.url, email, "Reset your password");
    const link = resetLinkIn(text);
    // The React client this server serves, on the origin the request came to.
    expect(link.startsWith(`${worker.url}/app/#/reset-password?token=`)).toBe(true);
    const token = new URLSearchParams(link.split("?")[1]).get("token");

    const done = await post("/api/auth/password-reset/confirm", { token, password: "set from the e-mail" });
    expect(done).toEqual({
      status: 200,
      body: {
        success: true,
        data: {
          userId: user.userId,
          username: user.username,
          ended: { sessions: 1, apiKeys: 0, passkeys: 0, oauthGrants: 0 },
        },
      },
    });
    const again = await post("/api/auth/password-reset/confirm", { token, password: "set from the e-mail" });
    expect(again.status).toBe(400);
    expect((await post("/api/auth/logout", undefined, user.token)).status).toBe(401);
    const login = await post("/api/login", { username: user.username, password: "set from the e-mail" });
    expect(login.status).toBe(201);
  });
});
