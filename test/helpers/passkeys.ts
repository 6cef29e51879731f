import { env } from "cloudflare:workers";
import { api, expectData, type ApiResult } from "./http";
import type { SignedUpUser } from "./auth";
import { ScriptedAuthenticator, type Ceremony } from "./authenticator";
import { issueChallenge } from "../../src/auth/passkeys/passkey-challenges";
import {
  PasskeySchema,
  RegistrationOptionsSchema,
  SignInOptionsSchema,
} from "../../src/routes/passkeys/passkeys.schemas";

// Passkey ceremonies over HTTP with a scripted authenticator (test/helpers/authenticator.ts).

export async function registrationOptions(user: Pick<SignedUpUser, "token" | "password">) {
  const res = await api("/api/passkeys/registration/options", {
    method: "POST",
    token: user.token,
    json: { currentPassword: user.password },
  });
  return expectData(res, 200, RegistrationOptionsSchema);
}

/** Registers a new credential of `authenticator` for `user`; the raw answer (for refusals) and the request body. */
export async function tryAddPasskey(
  user: Pick<SignedUpUser, "token" | "password">,
  authenticator: ScriptedAuthenticator,
  ceremony: Ceremony = {},
  name?: string,
): Promise<{ res: ApiResult; body: unknown }> {
  const options = await registrationOptions(user);
  const response = await authenticator.create(options, ceremony);
  const body = { response, ...(name !== undefined && { name }) };
  return { res: await api("/api/passkeys", { method: "POST", token: user.token, json: body }), body };
}

/** A passkey for `user` on a fresh (or the given) authenticator. */
export async function addPasskey(
  user: Pick<SignedUpUser, "token" | "password">,
  authenticator = new ScriptedAuthenticator(),
  name?: string,
) {
  const { res } = await tryAddPasskey(user, authenticator, {}, name);
  return { passkey: expectData(res, 201, PasskeySchema), authenticator };
}

export async function signInOptions() {
  return expectData(await api("/api/auth/passkey/options", { method: "POST" }), 200, SignInOptionsSchema);
}

/** The assertion `authenticator` makes for fresh sign-in options (or `challenge`), and the verify answer. */
export async function passkeySignIn(
  authenticator: ScriptedAuthenticator,
  ceremony: Ceremony = {},
  headers?: HeadersInit,
) {
  const options = await signInOptions();
  const response = await authenticator.get(options, ceremony);
  const res = await api("/api/auth/passkey/verify", { method: "POST", json: { response }, headers });
  return { res, response };
}

/** Posts a sign-in assertion as it is (a replay, a tampered one). */
export const postAssertion = (response: unknown, headers?: HeadersInit) =>
  api("/api/auth/passkey/verify", { method: "POST", json: { response }, headers });

/** A challenge the service signed as if at `issuedAt`: how a test moves the clock of a ceremony. */
export async function challengeIssuedAt(
  issuedAt: Date,
  kind: "register" | "sign-in" = "sign-in",
  userId: number | null = null,
) {
  return (await issueChallenge(env.JWT_SECRET, kind, userId, issuedAt)).challenge;
}

/** The passkey rows of a user as D1 holds them. */
export async function storedPasskeys(userId: number) {
  const { results } = await env.DB.prepare("SELECT * FROM passkeys_table WHERE userId = ? ORDER BY id")
    .bind(userId)
    .all<{ id: number; counter: number; lastUsedAt: string | null; name: string; credentialId: string }>();
  return results;
}
