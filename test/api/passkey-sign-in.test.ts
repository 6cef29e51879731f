// docs/security.md W1-W5, W9: signing in with a passkey. A discoverable credential signs its user in to a
// session like POST /api/login's; every refusal is a 401 that changes nothing stored (a snapshot of every
// table, before and after), and the limits are the password login's.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { signUp } from "../helpers/auth";
import { ScriptedAuthenticator } from "../helpers/authenticator";
import { isoAgo, refresh } from "../helpers/credentials";
import { api, expectData, expectError, type ApiResult } from "../helpers/http";
import { freshIp } from "../helpers/client-ip";
import {
  addPasskey,
  challengeIssuedAt,
  passkeySignIn,
  postAssertion,
  registrationOptions,
  signInOptions,
  storedPasskeys,
} from "../helpers/passkeys";
import { snapshotState, stateDiff } from "../helpers/state";
import { postJsonWithEnv } from "../helpers/storage";
import { LoginResultSchema } from "../../src/routes/auth/auth.schemas";
import { SessionListSchema } from "../../src/routes/sessions/sessions.schemas";
import { MeSchema } from "../../src/routes/users/users.schemas";
import { CHALLENGE_TTL_SECONDS } from "../../src/auth/passkeys/passkey-challenges";

afterEach(() => vi.restoreAllMocks());

const NOT_ACCEPTED = "Passkey not accepted";
const me = (token: string) => api("/api/me", { token });

/** Asserts a 401 with `message` that left every D1 row, R2 object and KV record as it was. */
async function expectRefused(attempt: () => Promise<ApiResult>, message: string | RegExp) {
  const before = await snapshotState();
  expectError(await attempt(), 401, message);
  expect(stateDiff(before, await snapshotState())).toBeNull();
}

describe("signing in with a passkey", () => {
  it("starts a session like /api/login's: token, refresh, the sessions list, logout", async () => {
    const user = await signUp();
    const { passkey, authenticator } = await addPasskey(user);
    const { res } = await passkeySignIn(authenticator, {}, { "User-Agent": "passkey-browser/1.0" });
    const result = expectData(res, 201, LoginResultSchema);
    expect(result).toMatchObject({ userId: user.userId, username: user.username });

    const self = expectData(await me(result.token), 200, MeSchema);
    expect(self.credential.kind).toBe("session");
    const sessions = expectData(
      await api("/api/auth/sessions", { token: result.token }),
      200,
      SessionListSchema,
    );
    expect(sessions.items.find((s) => s.current)?.userAgent).toBe("passkey-browser/1.0");
    const next = expectData(await refresh(result.refreshToken), 200, LoginResultSchema);
    expect((await api("/api/auth/logout", { method: "POST", token: next.token })).status).toBe(200);
    expectError(await me(next.token), 401, "Session ended: sign in again");

    const [row] = await storedPasskeys(user.userId);
    expect(row?.id).toBe(passkey.id);
    expect(row?.lastUsedAt).not.toBeNull();
  });

  it("W9: options name no credential and no user, and store nothing", async () => {
    const before = await snapshotState();
    const options = await signInOptions();
    expect(stateDiff(before, await snapshotState())).toBeNull();
    expect(options).toMatchObject({ rpId: "service.test", userVerification: "required", timeout: 300_000 });
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{72}$/);
    expect((await signInOptions()).challenge).not.toBe(options.challenge);
  });

  it("keeps the counter of an authenticator that counts", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user, new ScriptedAuthenticator(undefined, true));
    for (let i = 0; i < 2; i++) expect((await passkeySignIn(authenticator)).res.status).toBe(201);
    expect((await storedPasskeys(user.userId))[0]?.counter).toBe(3);
  });

  it("accepts a challenge issued just inside its 5 minutes (the clock of the ceremony moved back)", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user);
    const issuedAt = new Date(Date.now() - (CHALLENGE_TTL_SECONDS - 5) * 1000);
    const response = await authenticator.get({ challenge: await challengeIssuedAt(issuedAt) });
    expect((await postAssertion(response)).status).toBe(201);
  });
});

describe("refusals answer 401 and change nothing", () => {
  it("W1: a replayed assertion (the same challenge again) from an authenticator that does not count", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user);
    const { res, response } = await passkeySignIn(authenticator);
    expect(res.status).toBe(201);
    await expectRefused(() => postAssertion(response), "Passkey challenge already used: start again");
  });

  it("W1: a replayed assertion from an authenticator that counts", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user, new ScriptedAuthenticator(undefined, true));
    const { res, response } = await passkeySignIn(authenticator);
    expect(res.status).toBe(201);
    await expectRefused(() => postAssertion(response), NOT_ACCEPTED);
  });

  it("W2: a challenge issued more than 5 minutes ago", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user);
    const issuedAt = new Date(Date.now() - (CHALLENGE_TTL_SECONDS + 1) * 1000);
    const response = await authenticator.get({ challenge: await challengeIssuedAt(issuedAt) });
    await expectRefused(() => postAssertion(response), "Passkey sign-in expired: start again");
  });

  it("W2: a challenge we did not sign, a tampered one, or a registration's", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user);
    const { challenge } = await signInOptions();
    const flipped = `${challenge.slice(0, 10)}${challenge[10] === "A" ? "B" : "A"}${challenge.slice(11)}`;
    const registration = (await registrationOptions(user)).challenge;
    for (const bad of [flipped, "A".repeat(72), registration, "short"]) {
      const response = await authenticator.get({ challenge: bad });
      await expectRefused(() => postAssertion(response), "Passkey challenge is invalid: start again");
    }
  });

  it("W3: a wrong origin, a wrong RP id, the type of a registration", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user);
    for (const ceremony of [
      { origin: "https://evil.example" },
      { origin: "http://service.test:8443" },
      { rpId: "evil.example" },
      { rpId: "test" },
      { type: "webauthn.create" },
    ]) {
      const response = await authenticator.get(await signInOptions(), ceremony);
      await expectRefused(() => postAssertion(response), NOT_ACCEPTED);
    }
  });

  it("W4: an unknown credential, and a deleted one, answer as a registered one with a bad signature does", async () => {
    const user = await signUp();
    const { passkey, authenticator } = await addPasskey(user);
    const stranger = new ScriptedAuthenticator();
    await stranger.create({ ...(await registrationOptions(user)), rp: { name: "x" } });
    const unknown = await stranger.get(await signInOptions());
    await expectRefused(() => postAssertion(unknown), NOT_ACCEPTED);
    const registered = await postAssertion(
      await authenticator.get(await signInOptions(), { badSignature: true }),
    );
    const unregistered = await postAssertion(await stranger.get(await signInOptions()));
    expect([unregistered.status, unregistered.body]).toEqual([registered.status, registered.body]);
    // The challenge is judged for an unknown credential too: a bad one is told as for a registered one.
    const badChallenge = await stranger.get({ challenge: "A".repeat(72) });
    await expectRefused(() => postAssertion(badChallenge), "Passkey challenge is invalid: start again");

    expect(
      (await api(`/api/passkeys/${passkey.id}/delete`, { method: "POST", token: user.token })).status,
    ).toBe(200);
    const deleted = await authenticator.get(await signInOptions());
    await expectRefused(() => postAssertion(deleted), NOT_ACCEPTED);
  });

  it("W4: a signature counter that goes backwards, or stays, where the authenticator counts", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user, new ScriptedAuthenticator(undefined, true));
    expect((await passkeySignIn(authenticator, { counter: 10 })).res.status).toBe(201);
    for (const counter of [9, 10]) {
      const response = await authenticator.get(await signInOptions(), { counter });
      await expectRefused(() => postAssertion(response), NOT_ACCEPTED);
    }
    expect((await storedPasskeys(user.userId))[0]?.counter).toBe(10);
  });

  it("W4: a bad signature, another user's handle, no user handle, no user verification", async () => {
    const user = await signUp();
    const other = await signUp();
    const { authenticator } = await addPasskey(user);
    const otherHandle = (await registrationOptions(other)).user.id;
    for (const ceremony of [
      { badSignature: true },
      { userHandle: otherHandle },
      { userHandle: null },
      { userVerified: false },
    ]) {
      const response = await authenticator.get(await signInOptions(), ceremony);
      await expectRefused(() => postAssertion(response), NOT_ACCEPTED);
    }
  });

  it("W4: RS256 and EdDSA keys sign in as ES256 ones do, and a bad signature of either is refused", async () => {
    const user = await signUp();
    for (const alg of ["RS256", "EdDSA"] as const) {
      const { authenticator } = await addPasskey(
        user,
        new ScriptedAuthenticator(undefined, true, false, alg),
      );
      expect((await passkeySignIn(authenticator)).res.status, alg).toBe(201);
      const response = await authenticator.get(await signInOptions(), { badSignature: true });
      await expectRefused(() => postAssertion(response), NOT_ACCEPTED);
    }
  });

  it("W4: the passkey of a deleted user", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user);
    expect(
      (await api(`/api/users/${user.userId}/delete`, { method: "POST", token: user.token })).status,
    ).toBe(200);
    expect(await storedPasskeys(user.userId)).toEqual([]);
    const response = await authenticator.get(await signInOptions());
    await expectRefused(() => postAssertion(response), NOT_ACCEPTED);
  });
});

describe("W5: rate limits like the password login's", () => {
  it("per client IP and passkey: the attempt past 10 answers 429 with Retry-After; other clients go on", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user);
    const ip = { "CF-Connecting-IP": freshIp() };
    const statuses: number[] = [];
    let limited: ApiResult | undefined;
    // The limiter counts in fixed windows: 21 attempts put 11 into one window even across a boundary.
    for (let i = 0; i < 21 && !limited; i++) {
      const response = await authenticator.get(await signInOptions(), { badSignature: true });
      const res = await postAssertion(response, ip);
      if (res.status === 429) limited = res;
      else statuses.push(res.status);
    }
    expect(statuses.length).toBeGreaterThanOrEqual(10);
    expect(new Set(statuses)).toEqual(new Set([401]));
    expectError(limited!, 429, "Too many requests");
    expect(limited!.headers.get("Retry-After")).toBe("60");
    // Even a good assertion waits from that address; from another it signs in.
    expect((await passkeySignIn(authenticator, {}, ip)).res.status).toBe(429);
    expect((await passkeySignIn(authenticator)).res.status).toBe(201);
  });

  it("spends the client IP's sign-in budget (LOGIN_IP_LIMITER): a failing limiter refuses with 503", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const user = await signUp();
    const { authenticator } = await addPasskey(user);
    const broken = { limit: () => Promise.reject(new Error("limiter down")) } as unknown as RateLimit;
    const response = await authenticator.get(await signInOptions());
    for (const binding of ["LOGIN_IP_LIMITER", "AUTH_LIMITER"] as const) {
      const res = await postJsonWithEnv("/api/auth/passkey/verify", { response }, { [binding]: broken });
      expect(res.status).toBe(503);
    }
    // Nothing was spent: the same assertion still signs in.
    expect((await postAssertion(response)).status).toBe(201);
  });
});

describe("W9: used challenges", () => {
  it("are kept until they expire, then the hourly cron removes them", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user);
    const { response } = await passkeySignIn(authenticator);
    const challenge = JSON.parse(
      atob(response.response.clientDataJSON.replaceAll("-", "+").replaceAll("_", "/")),
    ).challenge as string;
    const used = env.DB.prepare(
      "SELECT expiresAt FROM used_passkey_challenges_table WHERE challenge = ?",
    ).bind(challenge);
    const row = await used.first<{ expiresAt: string }>();
    expect(Date.parse(row!.expiresAt) - Date.now()).toBeGreaterThan((CHALLENGE_TTL_SECONDS - 10) * 1000);

    await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env);
    expect(await used.first()).not.toBeNull();
    await env.DB.prepare("UPDATE used_passkey_challenges_table SET expiresAt = ? WHERE challenge = ?")
      .bind(isoAgo(1), challenge)
      .run();
    await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env);
    expect(await used.first()).toBeNull();
  });
});
