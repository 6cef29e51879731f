// A scripted WebAuthn authenticator: a P-256 key pair per credential (WebCrypto), attestation and
// assertion responses built byte by byte as a browser returns them (RegistrationResponseJSON,
// AuthenticationResponseJSON), and knobs to make each one wrong in exactly one way.
import { base64url } from "../../src/core/base64url";

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): number[] {
  if (length < 24) return [(major << 5) | length];
  if (length < 0x100) return [(major << 5) | 24, length];
  if (length < 0x10000) return [(major << 5) | 25, length >> 8, length & 0xff];
  return [(major << 5) | 26, ...[24, 16, 8, 0].map((shift) => (length >>> shift) & 0xff)];
}

/** CBOR (RFC 8949) of the few types WebAuthn uses: integers, byte and text strings, arrays, maps. */
export function cbor(value: Cbor): Uint8Array {
  const out: number[] = [];
  const write = (v: Cbor) => {
    if (typeof v === "number") out.push(...(v >= 0 ? head(0, v) : head(1, -1 - v)));
    else if (typeof v === "string") {
      const bytes = new TextEncoder().encode(v);
      out.push(...head(3, bytes.length), ...bytes);
    } else if (v instanceof Uint8Array) out.push(...head(2, v.length), ...v);
    else if (Array.isArray(v)) {
      out.push(...head(4, v.length));
      v.forEach(write);
    } else {
      const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
      out.push(...head(5, entries.length));
      for (const [key, item] of entries) {
        write(key);
        write(item);
      }
    }
  };
  write(value);
  return new Uint8Array(out);
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
const utf8 = (text: string) => new TextEncoder().encode(text);
const uint32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);

/** An ECDSA signature as WebAuthn carries it: ASN.1 DER, not WebCrypto's raw r || s. */
function der(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.subarray(i);
    const body = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const seq = concat(integer(raw.subarray(0, 32)), integer(raw.subarray(32)));
  return concat(new Uint8Array([0x30, seq.length]), seq);
}

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
  /** Flip a byte of the signature. */
  badSignature?: boolean;
}

export interface CredentialOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
}

interface Credential {
  id: string;
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
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const raw = new Uint8Array((await crypto.subtle.exportKey("raw", keys.publicKey)) as ArrayBuffer);
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, raw.subarray(1, 33)],
        [-3, raw.subarray(33)],
      ]),
    );
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
    const credential = { id: base64url(id), keys, userHandle: options.user.id, counter };
    this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key" as const,
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: base64url(this.clientData("webauthn.create", options.challenge, ceremony)),
        attestationObject: base64url(cbor({ fmt: "none", attStmt: {}, authData })),
        transports: ["internal"],
      },
    };
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
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, which.keys.privateKey, signed),
    );
    const signature = der(raw);
    if (ceremony.badSignature) signature[signature.length - 1]! ^= 0x01;
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
