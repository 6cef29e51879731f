// A scripted WebAuthn authenticator: a key pair per credential (WebCrypto; ES256 unless told RS256 or
// EdDSA), attestation and assertion responses built byte by byte as a browser returns them
// (RegistrationResponseJSON, AuthenticationResponseJSON), and knobs to make each one wrong in exactly
// one way.
import { base64url } from "../../src/core/base64url";
import {
  cbor,
  coseKey,
  concat,
  KEY_PARAMS,
  sha256,
  sign,
  uint32,
  utf8,
  type Algorithm,
  type Cbor,
} from "./webauthn-bytes";

export type { Algorithm };

const FLAGS = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 };

/** Where a ceremony happens, and what a test changes about it. */
export interface Ceremony {
  origin?: string;
  rpId?: string;
  /** The client data's type; `webauthn.create` for a registration, `webauthn.get` for a sign-in. */
  type?: string;
  challenge?: string;
  userVerified?: boolean;
  /** The signature counter to report (an authenticator that counts goes up by one by default). */
  counter?: number;
  userHandle?: string | null;
  /** Flip a byte of the signature (of the self-attestation too). */
  badSignature?: boolean;
  /**
   * The attestation statement: "none" by default; "packed" self-attestation signed by the new key;
   * "fido-u2f" with a certificate (random bytes: the service must refuse it before reading one).
   */
  attestation?: "none" | "packed" | "fido-u2f";
}

export interface CredentialOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
}

interface Credential {
  id: string;
  alg: Algorithm;
  keys: CryptoKeyPair;
  userHandle: string;
  counter: number;
}

/** One authenticator: it keeps the credentials it created, by rp id, as a platform authenticator does. */
export class ScriptedAuthenticator {
  readonly credentials: Credential[] = [];

  /** `counts`: report a signature counter that goes up with each use (security keys do; synced passkeys send 0). */
  constructor(
    readonly origin = "http://service.test",
    readonly counts = false,
    readonly backedUp = false,
    readonly alg: Algorithm = "ES256",
  ) {}

  private flags(ceremony: Ceremony, extra = 0) {
    const backup = this.backedUp ? FLAGS.be | FLAGS.bs : 0;
    return FLAGS.up | (ceremony.userVerified === false ? 0 : FLAGS.uv) | backup | extra;
  }

  private clientData(type: string, challenge: string, ceremony: Ceremony) {
    const data = {
      type: ceremony.type ?? type,
      challenge: ceremony.challenge ?? challenge,
      origin: ceremony.origin ?? this.origin,
      crossOrigin: false,
    };
    return utf8(JSON.stringify(data));
  }

  /** navigator.credentials.create() for `options`, through @simplewebauthn/browser's JSON. */
  async create(options: CredentialOptions, ceremony: Ceremony = {}) {
    const keys = (await crypto.subtle.generateKey(KEY_PARAMS[this.alg], true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const cose = await coseKey(this.alg, keys.publicKey);
    const id = crypto.getRandomValues(new Uint8Array(16));
    const counter = ceremony.counter ?? (this.counts ? 1 : 0);
    const rpIdHash = await sha256(utf8(ceremony.rpId ?? options.rp.id ?? new URL(this.origin).hostname));
    const authData = concat(
      rpIdHash,
      new Uint8Array([this.flags(ceremony, FLAGS.at)]),
      uint32(counter),
      new Uint8Array(16),
      new Uint8Array([0, id.length]),
      id,
      cose,
    );
    const credential = { id: base64url(id), alg: this.alg, keys, userHandle: options.user.id, counter };
    this.credentials.push(credential);
    const clientDataJSON = this.clientData("webauthn.create", options.challenge, ceremony);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key" as const,
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: base64url(clientDataJSON),
        attestationObject: base64url(
          cbor({ ...(await this.attestation(ceremony, credential, authData, clientDataJSON)), authData }),
        ),
        transports: ["internal"],
      },
    };
  }

  private async attestation(
    ceremony: Ceremony,
    credential: Credential,
    authData: Uint8Array,
    clientDataJSON: Uint8Array,
  ): Promise<{ fmt: string; attStmt: Record<string, Cbor> }> {
    const kind = ceremony.attestation ?? "none";
    if (kind === "none") return { fmt: "none", attStmt: {} };
    const signed = concat(authData, await sha256(clientDataJSON));
    const sig = await sign(credential.alg, credential.keys.privateKey, signed, ceremony.badSignature);
    if (kind === "fido-u2f") {
      return { fmt: "fido-u2f", attStmt: { sig, x5c: [crypto.getRandomValues(new Uint8Array(64))] } };
    }
    const alg = { ES256: -7, RS256: -257, EdDSA: -8 }[credential.alg];
    return { fmt: "packed", attStmt: { alg, sig } };
  }

  /** navigator.credentials.get() for `options` with credential `which` (the newest by default). */
  async get(
    options: { challenge: string; rpId?: string },
    ceremony: Ceremony = {},
    which = this.credentials.at(-1),
  ) {
    if (!which) throw new Error("this authenticator holds no credential");
    const counter = ceremony.counter ?? (this.counts ? which.counter + 1 : 0);
    which.counter = counter;
    const rpIdHash = await sha256(utf8(ceremony.rpId ?? options.rpId ?? new URL(this.origin).hostname));
    const authData = concat(rpIdHash, new Uint8Array([this.flags(ceremony)]), uint32(counter));
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, ceremony);
    const signed = concat(authData, await sha256(clientDataJSON));
    const signature = await sign(which.alg, which.keys.privateKey, signed, ceremony.badSignature);
    const userHandle = ceremony.userHandle === undefined ? which.userHandle : ceremony.userHandle;
    return {
      id: which.id,
      rawId: which.id,
      type: "public-key" as const,
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: base64url(clientDataJSON),
        authenticatorData: base64url(authData),
        signature: base64url(signature),
        ...(userHandle !== null && { userHandle }),
      },
    };
  }
}
