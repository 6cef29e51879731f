// The WebAuthn ceremonies (WebAuthn Level 2, §7.1 and §7.2): @oslojs/webauthn parses what the browser
// sends, webauthn-checks.ts judges it, cose-keys.ts verifies signatures with WebCrypto. Loaded on first use (`import("./webauthn")`),
// so isolates that never see a passkey never compile it.
import { decodeCBORToNativeValueNoLeftoverBytes } from "@oslojs/cbor";
import {
  AttestationStatementFormat,
  ClientDataType,
  parseAttestationObject,
  parseAuthenticatorData,
} from "@oslojs/webauthn";
import { base64url, fromBase64url } from "../../core/base64url";
import { readCredentialKey, SUPPORTED_ALGORITHMS, verifySignature } from "./cose-keys";
import { checkAuthenticator, checkClientData, refuse } from "./webauthn-checks";
import { CHALLENGE_TTL_SECONDS } from "./passkey-challenges";
import type { RelyingParty } from "./relying-party";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "./webauthn-json";

const TIMEOUT_MS = CHALLENGE_TTL_SECONDS * 1000;
// Passkeys replace a password: the authenticator must verify its user (PIN, biometrics), not only see them.
const USER_VERIFICATION = "required" as const;

/** Options for navigator.credentials.create(): a discoverable credential, none of `exclude` again. */
export function registrationOptions(
  rp: RelyingParty,
  user: { handle: string; name: string; displayName: string },
  challenge: string,
  exclude: { credentialId: string; transports: string[] }[],
) {
  return {
    challenge,
    rp: { id: rp.id, name: rp.name },
    user: { id: user.handle, name: user.name, displayName: user.displayName },
    pubKeyCredParams: SUPPORTED_ALGORITHMS.map((alg) => ({ type: "public-key" as const, alg })),
    timeout: TIMEOUT_MS,
    // The service judges no authenticator's make, so it asks for no attestation (see verifyAttestation).
    attestation: "none" as const,
    excludeCredentials: exclude.map(({ credentialId, transports }) => ({
      id: credentialId,
      type: "public-key",
      transports,
    })),
    authenticatorSelection: {
      residentKey: "required" as const,
      requireResidentKey: true,
      userVerification: USER_VERIFICATION,
    },
  };
}

/** Options for navigator.credentials.get(): no credentials listed, the authenticator offers its own. */
export function signInOptions(rp: RelyingParty, challenge: string) {
  return { challenge, rpId: rp.id, timeout: TIMEOUT_MS, userVerification: USER_VERIFICATION };
}

export type Verdict<T> = { ok: true; value: T } | { ok: false; detail: string };

function verdictOf(err: unknown): { ok: false; detail: string } {
  const detail = err instanceof Error ? err.message : String(err);
  return { ok: false, detail: detail.slice(0, 300) };
}

export interface NewCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: "singleDevice" | "multiDevice";
  backedUp: boolean;
}

/**
 * The attestation statement, as registrations ask for none: "none", or "packed" self-attestation
 * (signed by the new credential's own key, which some clients pass on). Formats that carry a
 * certificate chain are refused: with no trust anchors a chain would prove nothing, and a client
 * asked for "none" replaces them.
 */
async function verifyAttestation(
  statement: ReturnType<typeof parseAttestationObject>["attestationStatement"],
  key: { cose: Uint8Array; algorithm: number },
  signed: Uint8Array,
) {
  if (statement.format === AttestationStatementFormat.None) {
    if (Object.keys(statement.decoded).length > 0) refuse("attestation 'none' with a statement");
    return;
  }
  if (statement.format !== AttestationStatementFormat.Packed) refuse("attestation format not accepted");
  const packed = statement.packed();
  if (packed.certificates) refuse("attestation with certificates not accepted");
  if (packed.algorithm !== key.algorithm) refuse("self-attestation algorithm is not the key's");
  if (!(await verifySignature(key.cose, packed.signature, signed))) refuse("bad self-attestation signature");
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
    const { clientDataJSON, attestationObject, transports } = response.response;
    if (response.id !== response.rawId) refuse("id and rawId differ");
    const clientDataHash = await checkClientData(clientDataJSON, ClientDataType.Create, rp, challengeOk);
    const object = fromBase64url(attestationObject);
    const { attestationStatement, authenticatorData } = parseAttestationObject(object);
    // The parser keeps no raw bytes, which the attestation signs and the credential key is read from.
    const rawAuthData = (decodeCBORToNativeValueNoLeftoverBytes(object, 4) as { authData: Uint8Array })
      .authData;
    const { backupEligible, backedUp } = await checkAuthenticator(authenticatorData, rawAuthData, rp);
    const credential = authenticatorData.credential ?? refuse("no attested credential data");
    if (base64url(credential.id) !== response.id) refuse("credential id is not the response's");
    const key = await readCredentialKey(rawAuthData.subarray(55 + credential.id.length));
    const signed = new Uint8Array([...rawAuthData, ...clientDataHash]);
    await verifyAttestation(attestationStatement, key, signed);
    return {
      ok: true,
      value: {
        credentialId: response.id,
        publicKey: base64url(key.cose),
        counter: authenticatorData.signatureCounter,
        transports: transports ?? [],
        deviceType: backupEligible ? "multiDevice" : "singleDevice",
        backedUp,
      },
    };
  } catch (err) {
    return verdictOf(err);
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
  try {
    if (response.id !== stored.credentialId || response.rawId !== response.id)
      refuse("credential id mismatch");
    const { clientDataJSON, authenticatorData, signature } = response.response;
    const clientDataHash = await checkClientData(clientDataJSON, ClientDataType.Get, rp, challengeOk);
    const rawAuthData = fromBase64url(authenticatorData);
    const data = parseAuthenticatorData(rawAuthData);
    const { backedUp } = await checkAuthenticator(data, rawAuthData, rp);
    const signed = new Uint8Array([...rawAuthData, ...clientDataHash]);
    if (!(await verifySignature(fromBase64url(stored.publicKey), fromBase64url(signature), signed))) {
      refuse("bad signature");
    }
    const counter = data.signatureCounter;
    // Authenticators that count (security keys) must go up; synced passkeys report 0 every time.
    if ((counter > 0 || stored.counter > 0) && counter <= stored.counter) {
      refuse(`counter ${counter} did not go up from ${stored.counter}`);
    }
    return { ok: true, value: { counter, backedUp } };
  } catch (err) {
    return verdictOf(err);
  }
}

/**
 * An assertion of a credential we do not hold (unknown, deleted, or named with another user's handle):
 * the client-data checks a known one gets, then refused like a bad signature, so the answer does not
 * tell whether a credential id is registered.
 */
export async function refuseUnknownCredential(
  response: AuthenticationResponseJSON,
  rp: RelyingParty,
  challengeOk: (challenge: string) => Promise<boolean>,
): Promise<{ ok: false; detail: string }> {
  try {
    await checkClientData(response.response.clientDataJSON, ClientDataType.Get, rp, challengeOk);
    return { ok: false, detail: "unknown credential, or not this user's" };
  } catch (err) {
    return verdictOf(err);
  }
}
