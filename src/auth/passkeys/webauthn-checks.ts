// The checks both WebAuthn ceremonies make (WebAuthn Level 2, §7.1 and §7.2) of what the browser and
// the authenticator say, besides the signature.
import { ClientDataType, parseClientDataJSON, type AuthenticatorData } from "@oslojs/webauthn";
import { fromBase64url } from "../../core/base64url";
import type { RelyingParty } from "./relying-party";

/** Refuses a response: why, for the log (never sent to the client as is). */
export const refuse = (detail: string): never => {
  throw new Error(detail);
};

const TYPES = { [ClientDataType.Create]: "webauthn.create", [ClientDataType.Get]: "webauthn.get" };

/** What both ceremonies check of the client's data: its type, our challenge, an allowed origin. */
export async function checkClientData(
  encoded: string,
  type: ClientDataType,
  rp: RelyingParty,
  challengeOk: (challenge: string) => Promise<boolean>,
) {
  const bytes = fromBase64url(encoded);
  // The challenge is judged as the client echoed it, even one the parser would not decode: a
  // refused challenge is told apart from a refused response, and used ones are recorded as sent.
  const sent = JSON.parse(new TextDecoder().decode(bytes)) as { type?: unknown; challenge?: unknown };
  if (sent.type !== TYPES[type]) refuse("unexpected client data type");
  if (!(await challengeOk(String(sent.challenge)))) refuse("challenge not accepted");
  const clientData = parseClientDataJSON(bytes);
  if (!rp.origins.includes(clientData.origin)) refuse(`unexpected origin ${clientData.origin}`);
  // Pages of the allowed origins only, never one of them framed by another site.
  if (clientData.crossOrigin) refuse("cross-origin ceremony");
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

const equalBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

/** What both ceremonies check of the authenticator's data: our RP id, a present and verified user. */
export async function checkAuthenticator(data: AuthenticatorData, raw: Uint8Array, rp: RelyingParty) {
  // WebCrypto's hash, not the parser's helper (the build leaves out its pure-JavaScript SHA-2).
  const expected = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(rp.id)));
  if (!equalBytes(data.relyingPartyIdHash, expected)) refuse("unexpected RP id hash");
  if (!data.userPresent) refuse("user not present");
  if (!data.userVerified) refuse("user not verified");
  // Flags byte (§6.1): backup eligible (BE) and backed up (BS), which the parser does not read.
  const backupEligible = (raw[32]! & 0x08) !== 0;
  const backedUp = (raw[32]! & 0x10) !== 0;
  if (backedUp && !backupEligible) refuse("backed up but not backup-eligible");
  return { backupEligible, backedUp };
}
