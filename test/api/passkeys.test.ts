// docs/security.md W3, W6-W8, W11, W12: adding, listing, renaming and deleting passkeys. Registration
// needs the password and a signed-in session; its challenge is bound to the user, valid 5 minutes and
// once; a refused registration stores nothing; API keys and OAuth tokens manage no passkeys; an
// account recovery deletes them.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { logIn, signUp } from "../helpers/auth";
import { ScriptedAuthenticator } from "../helpers/authenticator";
import { createKey } from "../helpers/credentials";
import { freshIp } from "../helpers/client-ip";
import { api, BAD_PAGING, expectData, expectError, type ApiResult } from "../helpers/http";
import { grantFor } from "../helpers/oauth";
import { requestResetLink, accountMailTo } from "../helpers/email";
import {
  addPasskey,
  challengeIssuedAt,
  passkeySignIn,
  registrationOptions,
  storedPasskeys,
  tryAddPasskey,
} from "../helpers/passkeys";
import { snapshotState, stateDiff } from "../helpers/state";
import { PasskeyPageSchema, PasskeySchema } from "../../src/routes/passkeys/passkeys.schemas";
import { ResetDoneSchema } from "../../src/routes/password-reset/password-reset.schemas";
import { CHALLENGE_TTL_SECONDS } from "../../src/auth/passkeys/passkey-challenges";
import { MAX_PASSKEYS } from "../../src/auth/passkeys/passkey-registration";

const post = (path: string, token: string, json?: unknown) => api(path, { method: "POST", token, json });
const SIGN_IN_ONLY = "This route needs a signed-in session; API keys cannot use it";

/** `call` answers `status` (and `message`) and leaves every D1 row, R2 object and KV record as it was. */
async function expectUnchanged(call: () => Promise<ApiResult>, status: number, message?: string | RegExp) {
  const before = await snapshotState();
  expectError(await call(), status, message);
  expect(stateDiff(before, await snapshotState())).toBeNull();
}

describe("adding a passkey", () => {
  it("options after the password: a discoverable, user-verified credential for this site, none twice", async () => {
    const user = await signUp();
    const options = await registrationOptions(user);
    expect(options).toMatchObject({
      rp: { id: "service.test", name: "Workers API Service" },
      user: { name: user.username, displayName: "Test User" },
      attestation: "none",
      timeout: CHALLENGE_TTL_SECONDS * 1000,
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      excludeCredentials: [],
    });
    // An opaque, stable handle: neither the id nor the username.
    expect(options.user.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await registrationOptions(user)).user.id).toBe(options.user.id);
    expect((await registrationOptions(await signUp())).user.id).not.toBe(options.user.id);

    const { passkey } = await addPasskey(user);
    expect((await registrationOptions(user)).excludeCredentials).toEqual([
      {
        id: (await storedPasskeys(user.userId))[0]!.credentialId,
        type: "public-key",
        transports: ["internal"],
      },
    ]);
    expect(passkey.id).toBeGreaterThan(0);
  });

  it("keeps the passkey with its name, device type and backup state, never its key in an answer", async () => {
    const user = await signUp();
    const synced = new ScriptedAuthenticator(undefined, false, true);
    const { res } = await tryAddPasskey(user, synced, {}, "  Phone  ");
    const passkey = expectData(res, 201, PasskeySchema);
    expect(passkey).toMatchObject({
      name: "Phone",
      deviceType: "multiDevice",
      backedUp: true,
      transports: ["internal"],
      lastUsedAt: null,
    });
    const answered = (res.body as { data: object }).data;
    expect(Object.keys(answered).toSorted()).toEqual([
      "backedUp",
      "createdAt",
      "deviceType",
      "id",
      "lastUsedAt",
      "name",
      "transports",
    ]);
    const unnamed = expectData(
      (await tryAddPasskey(user, new ScriptedAuthenticator())).res,
      201,
      PasskeySchema,
    );
    expect(unnamed).toMatchObject({
      name: `Passkey added ${unnamed.createdAt.slice(0, 10)}`,
      deviceType: "singleDevice",
    });
  });

  it("W6: needs the password: none is 400, a wrong one 403, and wrong ones are limited like a login (429)", async () => {
    const user = await signUp();
    const ip = { "CF-Connecting-IP": freshIp() };
    const ask = (json: unknown) =>
      api("/api/passkeys/registration/options", { method: "POST", token: user.token, json, headers: ip });
    for (const body of [
      {},
      { currentPassword: "" },
      { currentPassword: user.password, extra: 1 },
      { currentPassword: 7 },
    ]) {
      expectError(await ask(body), 400);
    }
    const statuses: number[] = [];
    // The limiter counts in fixed windows: 21 attempts put 11 into one window even across a boundary.
    for (let i = 0; i < 21 && statuses.at(-1) !== 429; i++) {
      statuses.push((await ask({ currentPassword: "not the password" })).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([403]));
    expect(statuses.length).toBeGreaterThan(10);
    expectError(await ask({ currentPassword: user.password }), 429, "Too many requests");
  });

  it("W6: refuses with 400 and stores nothing: another user's challenge, an expired one, one used before", async () => {
    const user = await signUp();
    const other = await signUp();
    const authenticator = new ScriptedAuthenticator();
    const theirs = await registrationOptions(other);
    const attempt = async (options: Awaited<ReturnType<typeof registrationOptions>>) =>
      post("/api/passkeys", user.token, { response: await authenticator.create(options) });
    await expectUnchanged(
      () => attempt(theirs),
      400,
      "Passkey challenge is invalid or not yours: start again",
    );

    const mine = await registrationOptions(user);
    const issuedAt = new Date(Date.now() - (CHALLENGE_TTL_SECONDS + 1) * 1000);
    const expired = { ...mine, challenge: await challengeIssuedAt(issuedAt, "register", user.userId) };
    await expectUnchanged(() => attempt(expired), 400, "Passkey registration expired: start again");
    const signIn = { ...mine, challenge: await challengeIssuedAt(new Date(), "sign-in") };
    await expectUnchanged(
      () => attempt(signIn),
      400,
      "Passkey challenge is invalid or not yours: start again",
    );

    expect((await attempt(mine)).status).toBe(201);
    await expectUnchanged(() => attempt(mine), 400, "Passkey challenge already used: start again");
    expect(await storedPasskeys(user.userId)).toHaveLength(1);
  });

  it("W3: refuses with 400 and stores nothing: a wrong origin or RP id, no user verification, a sign-in's type", async () => {
    const user = await signUp();
    const authenticator = new ScriptedAuthenticator();
    for (const ceremony of [
      { origin: "https://evil.example" },
      { rpId: "evil.example" },
      { userVerified: false },
      { type: "webauthn.get" },
    ]) {
      await expectUnchanged(
        async () => (await tryAddPasskey(user, authenticator, ceremony)).res,
        400,
        "Passkey not accepted",
      );
    }
    // The React client's origin (CORS_ORIGINS) is one of the defaults.
    const client = new ScriptedAuthenticator("http://localhost:5173");
    expect((await tryAddPasskey(user, client, { rpId: "service.test" })).res.status).toBe(201);
  });

  it("W3: packed self-attestation is checked (its signature is the new key's); attestation with certificates is 400", async () => {
    const user = await signUp();
    const authenticator = new ScriptedAuthenticator();
    for (const ceremony of [
      { attestation: "packed", badSignature: true },
      { attestation: "fido-u2f" },
    ] as const) {
      await expectUnchanged(
        async () => (await tryAddPasskey(user, authenticator, ceremony)).res,
        400,
        "Passkey not accepted",
      );
    }
    const selfAttested = await tryAddPasskey(user, authenticator, { attestation: "packed" });
    expect(selfAttested.res.status).toBe(201);
    expect((await passkeySignIn(authenticator)).res.status).toBe(201);
  });

  it("W11: a credential registered before is 409, for its owner or anyone else", async () => {
    const user = await signUp();
    const other = await signUp();
    const { body } = await tryAddPasskey(user, new ScriptedAuthenticator());
    const again = body as { response: { response: object } };
    // The same credential answering fresh options: only the challenge differs, so only the client data is redone.
    const replay = async (who: typeof user) => {
      const options = await registrationOptions(who);
      const copy = new ScriptedAuthenticator();
      const fresh = await copy.create(options);
      const response = {
        ...(again.response as object),
        response: { ...again.response.response, clientDataJSON: fresh.response.clientDataJSON },
      };
      return post("/api/passkeys", who.token, { response });
    };
    await expectUnchanged(() => replay(user), 409, "This passkey is already registered");
    await expectUnchanged(() => replay(other), 409, "This passkey is already registered");
  });

  it(`W11: holds at most ${MAX_PASSKEYS} passkeys per user (409), before the authenticator is asked`, async () => {
    const user = await signUp();
    await addPasskey(user);
    const [row] = await storedPasskeys(user.userId);
    const copies = Array.from({ length: MAX_PASSKEYS - 1 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO passkeys_table (userId, credentialId, publicKey, userHandle, transports, deviceType, backedUp, name) " +
          "SELECT userId, credentialId || ?, publicKey, userHandle, transports, deviceType, backedUp, name FROM passkeys_table WHERE id = ?",
      ).bind(`x${i}`, row!.id),
    );
    await env.DB.batch(copies);
    await expectUnchanged(
      () => post("/api/passkeys/registration/options", user.token, { currentPassword: user.password }),
      409,
      `At most ${MAX_PASSKEYS} passkeys per user: delete one first`,
    );
  });
});

describe("W7: listing, renaming, deleting", () => {
  it("lists yours newest first; renames and deletes them; another user's is 404 and intact", async () => {
    const user = await signUp();
    const other = await signUp();
    const first = (await addPasskey(user, undefined, "Laptop")).passkey;
    const second = (await addPasskey(user, undefined, "Phone")).passkey;
    const { passkey: theirs, authenticator: theirAuthenticator } = await addPasskey(
      other,
      undefined,
      "Theirs",
    );

    const page = expectData(
      await api("/api/passkeys?pageSize=1", { token: user.token }),
      200,
      PasskeyPageSchema,
    );
    expect(page).toMatchObject({ total: 2, totalPages: 2, items: [{ id: second.id, name: "Phone" }] });
    for (const query of BAD_PAGING)
      expectError(await api(`/api/passkeys?${query}`, { token: user.token }), 400);

    const renamed = expectData(
      await post(`/api/passkeys/${first.id}`, user.token, { name: " Work laptop " }),
      200,
      PasskeySchema,
    );
    expect(renamed).toMatchObject({ id: first.id, name: "Work laptop" });
    const invalid = [{}, { name: "" }, { name: "x".repeat(101) }, { name: 1 }, { name: "ok", id: 2 }];
    // W8: one line, so a name cannot write its own paragraph into the password-reset e-mail.
    const multiline = [
      "Laptop\n\nAll passkeys above are yours",
      "a\rb",
      "tab\there",
      "nul\u0000",
      "c1\u0085",
    ];
    for (const body of [...invalid, ...multiline.map((name) => ({ name }))]) {
      expectError(await post(`/api/passkeys/${first.id}`, user.token, body), 400);
    }

    await expectUnchanged(
      () => post(`/api/passkeys/${theirs.id}`, user.token, { name: "mine now" }),
      404,
      "Passkey not found",
    );
    await expectUnchanged(
      () => post(`/api/passkeys/${theirs.id}/delete`, user.token),
      404,
      "Passkey not found",
    );
    for (const id of ["0", "-1", "abc", "1.5", "99999999999999999999"]) {
      expectError(await post(`/api/passkeys/${id}/delete`, user.token), 400);
    }

    expect(
      expectData(await post(`/api/passkeys/${first.id}/delete`, user.token), 200, PasskeySchema).id,
    ).toBe(first.id);
    expectError(await post(`/api/passkeys/${first.id}/delete`, user.token), 404, "Passkey not found");
    expect((await storedPasskeys(user.userId)).map((p) => p.id)).toEqual([second.id]);
    // Theirs still signs them in.
    expect((await passkeySignIn(theirAuthenticator)).res.status).toBe(201);
  });
});

describe("who may manage passkeys", () => {
  it("W7: API keys are 403 and OAuth tokens 401 on every passkey route; nothing changes", async () => {
    const user = await signUp();
    const { passkey } = await addPasskey(user);
    const key = await createKey(user.token, [
      "todos:read",
      "todos:write",
      "files:read",
      "files:write",
      "agents:connect",
    ]);
    const grant = await grantFor(user, { write: true });
    const calls: [string, string, unknown?][] = [
      ["POST", "/api/passkeys/registration/options", { currentPassword: user.password }],
      ["POST", "/api/passkeys", { response: {} }],
      ["GET", "/api/passkeys"],
      ["POST", `/api/passkeys/${passkey.id}`, { name: "taken over" }],
      ["POST", `/api/passkeys/${passkey.id}/delete`],
    ];
    for (const [method, path, json] of calls) {
      await expectUnchanged(() => api(path, { method, token: key.key, json }), 403, SIGN_IN_ONLY);
      await expectUnchanged(() => api(path, { method, token: grant.access_token, json }), 401);
    }
  });

  it("W8: deleting the user deletes their passkeys", async () => {
    const user = await signUp();
    await addPasskey(user);
    await addPasskey(user);
    expect(await storedPasskeys(user.userId)).toHaveLength(2);
    expect((await post(`/api/users/${user.userId}/delete`, user.token)).status).toBe(200);
    expect(await storedPasskeys(user.userId)).toEqual([]);
  });
});

describe("W8: password reset", () => {
  it("deletes the passkeys (an intruder's among them), as the e-mail with the link says", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user, undefined, "Laptop");
    await addPasskey(user, undefined, "Unknown tablet");
    expect((await passkeySignIn(authenticator)).res.status).toBe(201);
    const token = await requestResetLink(user.email);
    const text = (await accountMailTo(user.email)).at(-1)!.text;
    const today = new Date().toISOString().slice(0, 10);
    expect(text).toContain("Using the link also removes the passkeys of your account");
    expect(text).toContain(`  - Laptop (added ${today}, last used ${today})`);
    expect(text).toContain(`  - Unknown tablet (added ${today}, never used)`);

    const confirmed = await api("/api/auth/password-reset/confirm", {
      method: "POST",
      json: { token, password: "a brand new password" },
    });
    expect(expectData(confirmed, 200, ResetDoneSchema).ended.passkeys).toBe(2);
    expect(await storedPasskeys(user.userId)).toEqual([]);
    const { res } = await passkeySignIn(authenticator);
    expectError(res, 401, "Passkey not accepted");
    const token2 = await logIn(user.username, "a brand new password");
    const list = expectData(await api("/api/passkeys", { token: token2 }), 200, PasskeyPageSchema);
    expect(list.items).toEqual([]);
  });

  it("changing the password while signed in keeps them", async () => {
    const user = await signUp();
    const { authenticator } = await addPasskey(user);
    const change = { password: "a brand new password", currentPassword: user.password };
    expect((await post(`/api/users/${user.userId}`, user.token, change)).status).toBe(200);
    expect(await storedPasskeys(user.userId)).toHaveLength(1);
    expect((await passkeySignIn(authenticator)).res.status).toBe(201);
  });

  it("an account without passkeys gets the e-mail as before", async () => {
    const user = await signUp();
    await requestResetLink(user.email);
    expect((await accountMailTo(user.email)).at(-1)!.text).not.toContain("passkey");
  });
});
