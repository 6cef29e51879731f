// The WebAuthn ceremonies, through @simplewebauthn/server: the one module that imports it, loaded on
// first use (`import("./webauthn")`), so isolates that never see a passkey never compile it.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  SettingsService,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import { base64url, fromBase64url } from "../../core/base64url";
import { CHALLENGE_TTL_SECONDS } from "./passkey-challenges";
import type { RelyingParty } from "./relying-party";

// Registrations ask for no attestation, and the service judges no authenticator's make: with no trust
// anchors the library still checks a statement's own signature but never builds a certificate chain,
// so @peculiar/x509 is never reached (scripts/build-worker.mjs bundles a stand-in for it).
for (const identifier of ["android-key", "android-safetynet", "apple", "mds"] as const) {
  SettingsService.setRootCertificates({ identifier, certificates: [] });
}

const TIMEOUT_MS = CHALLENGE_TTL_SECONDS * 1000;
// Passkeys replace a password: the authenticator must verify its user (PIN, biometrics), not only see them.
const USER_VERIFICATION = "required";

/** Options for navigator.credentials.create(): a discoverable credential, none of `exclude` again. */
export function registrationOptions(
  rp: RelyingParty,
  user: { handle: string; name: string; displayName: string },
  challenge: string,
  exclude: { credentialId: string; transports: string[] }[],
) {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: fromBase64url(user.handle),
    userName: user.name,
    userDisplayName: user.displayName,
    // Bytes, so the options carry our challenge as it is (a string would be re-encoded).
    challenge: fromBase64url(challenge),
    timeout: TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: exclude.map(({ credentialId, transports }) => ({ id: credentialId, transports })),
    authenticatorSelection: { residentKey: "required", userVerification: USER_VERIFICATION },
  });
}

/** Options for navigator.credentials.get(): no credentials listed, the authenticator offers its own. */
export function signInOptions(rp: RelyingParty, challenge: string) {
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge: fromBase64url(challenge),
    timeout: TIMEOUT_MS,
    userVerification: USER_VERIFICATION,
  });
}

/** Why the library refused a response, for the log (never sent to the client as is). */
const refusal = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);

export type Verdict<T> = { ok: true; value: T } | { ok: false; detail: string };

export interface NewCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: "singleDevice" | "multiDevice";
  backedUp: boolean;
}

/**
 * An attestation checked against `rp` and a challenge that `challengeOk` accepts: the new credential,
 * or why not.
 */
export async function verifyRegistration(
  response: RegistrationResponseJSON,
  rp: RelyingParty,
  challengeOk: (challenge: string) => Promise<boolean>,
): Promise<Verdict<NewCredential>> {
  try {
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      response,
      expectedChallenge: challengeOk,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!verified) return { ok: false, detail: "not verified" };
    const { credential, credentialDeviceType, credentialBackedUp } = registrationInfo;
    return {
      ok: true,
      value: {
        credentialId: credential.id,
        publicKey: base64url(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? response.response.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
      },
    };
  } catch (err) {
    return { ok: false, detail: refusal(err) };
  }
}

export interface StoredCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/**
 * An assertion checked against `rp`, the stored credential and a challenge that `challengeOk` accepts:
 * the authenticator's new counter and backup state, or why not (a counter that did not go up, where
 * the authenticator counts, is refused here).
 */
export async function verifySignIn(
  response: AuthenticationResponseJSON,
  rp: RelyingParty,
  stored: StoredCredential,
  challengeOk: (challenge: string) => Promise<boolean>,
): Promise<Verdict<{ counter: number; backedUp: boolean }>> {
  const credential: WebAuthnCredential = {
    id: stored.credentialId,
    publicKey: fromBase64url(stored.publicKey),
    counter: stored.counter,
    transports: stored.transports,
  };
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challengeOk,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential,
      requireUserVerification: true,
    });
    if (!verified) return { ok: false, detail: "not verified" };
    return {
      ok: true,
      value: { counter: authenticationInfo.newCounter, backedUp: authenticationInfo.credentialBackedUp },
    };
  } catch (err) {
    return { ok: false, detail: refusal(err) };
  }
}
