// The bytes a scripted authenticator (test/helpers/authenticator.ts) writes: CBOR, COSE keys and
// signatures as WebAuthn carries them.
import { fromBase64url } from "../../src/core/base64url";

export type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

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

export const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

export const sha256 = async (bytes: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
export const utf8 = (text: string) => new TextEncoder().encode(text);
export const uint32 = (n: number) =>
  new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);

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

export type Algorithm = "ES256" | "RS256" | "EdDSA";

export const KEY_PARAMS = {
  ES256: { name: "ECDSA", namedCurve: "P-256" },
  RS256: {
    name: "RSASSA-PKCS1-v1_5",
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: "SHA-256",
  },
  EdDSA: { name: "Ed25519" },
};

const jwkBytes = (text: string | undefined) => fromBase64url(text!);

/** The COSE key (RFC 9053) of a public key, as the authenticator data carries it. */
export async function coseKey(alg: Algorithm, key: CryptoKey): Promise<Uint8Array> {
  if (alg === "EdDSA") {
    const x = new Uint8Array((await crypto.subtle.exportKey("raw", key)) as ArrayBuffer);
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 1],
        [3, -8],
        [-1, 6],
        [-2, x],
      ]),
    );
  }
  const jwk = (await crypto.subtle.exportKey("jwk", key)) as JsonWebKey;
  if (alg === "RS256") {
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 3],
        [3, -257],
        [-1, jwkBytes(jwk.n)],
        [-2, jwkBytes(jwk.e)],
      ]),
    );
  }
  return cbor(
    new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, jwkBytes(jwk.x)],
      [-3, jwkBytes(jwk.y)],
    ]),
  );
}

/** A signature as WebAuthn carries it: DER for ES256, as WebCrypto makes it otherwise. */
export async function sign(
  alg: Algorithm,
  key: CryptoKey,
  data: Uint8Array,
  bad = false,
): Promise<Uint8Array> {
  const params = alg === "ES256" ? { name: "ECDSA", hash: "SHA-256" } : KEY_PARAMS[alg];
  const raw = new Uint8Array(await crypto.subtle.sign(params, key, data));
  const signature = alg === "ES256" ? der(raw) : raw;
  if (bad) signature[signature.length - 1]! ^= 0x01;
  return signature;
}
