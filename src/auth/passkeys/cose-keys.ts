// Credential public keys as WebAuthn stores them (COSE, RFC 9053), verified with WebCrypto: @oslojs
// parses and checks the COSE map, WebCrypto imports its numbers as a JWK. No ASN.1 library: the one
// DER structure met here, an ECDSA signature, is read by ecdsa-signatures.ts.
import { decodeCBORToNativeValue, decodeCBORToNativeValueNoLeftoverBytes } from "@oslojs/cbor";
import { base64url } from "../../core/base64url";
import { ecdsaSignatureRaw } from "./ecdsa-signatures";
import {
  coseAlgorithmEdDSA,
  coseAlgorithmES256,
  coseAlgorithmRS256,
  coseEllipticCurveEd25519,
  coseEllipticCurveP256,
  COSEKeyType,
  COSEPublicKey,
} from "@oslojs/webauthn";

/** The algorithms offered to authenticators, in order of preference: EdDSA, ES256, RS256. */
export const SUPPORTED_ALGORITHMS = [coseAlgorithmEdDSA, coseAlgorithmES256, coseAlgorithmRS256];

// A COSE key is a flat map; 4 levels leave room for nothing deeper than WebAuthn uses.
const MAX_DEPTH = 4;

interface VerifyingKey {
  key: CryptoKey;
  params: Parameters<SubtleCrypto["verify"]>[0];
  /** Turns WebAuthn's signature encoding into WebCrypto's. */
  signature: (bytes: Uint8Array) => Uint8Array;
}

const asIs = (bytes: Uint8Array) => bytes;

/** A COSE parameter's bytes, once the parser has checked the key's shape. */
const param = (cose: COSEPublicKey, label: number) =>
  base64url((cose.decoded as Record<number, Uint8Array>)[label]!);

/** A WebCrypto key for a COSE key of a supported algorithm; throws for any other. */
async function verifyingKey(cose: COSEPublicKey): Promise<VerifyingKey> {
  const alg = cose.algorithm();
  const subtle = crypto.subtle;
  if (alg === coseAlgorithmES256 && cose.type() === COSEKeyType.EC2) {
    const { curve } = cose.ec2();
    if (curve !== coseEllipticCurveP256) throw new Error(`ES256 key on curve ${curve}, not P-256`);
    const jwk = { kty: "EC", crv: "P-256", x: param(cose, -2), y: param(cose, -3) };
    const key = await subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    return { key, params: { name: "ECDSA", hash: "SHA-256" }, signature: ecdsaSignatureRaw };
  }
  if (alg === coseAlgorithmRS256 && cose.type() === COSEKeyType.RSA) {
    cose.rsa();
    const jwk = { kty: "RSA", n: param(cose, -1), e: param(cose, -2) };
    const params = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
    const key = await subtle.importKey("jwk", jwk, params, false, ["verify"]);
    return { key, params, signature: asIs };
  }
  if (alg === coseAlgorithmEdDSA && cose.type() === COSEKeyType.OKP) {
    const { curve, x } = cose.okp();
    if (curve !== coseEllipticCurveEd25519) throw new Error(`EdDSA key on curve ${curve}, not Ed25519`);
    const key = await subtle.importKey("raw", x, { name: "Ed25519" }, false, ["verify"]);
    return { key, params: { name: "Ed25519" }, signature: asIs };
  }
  throw new Error(`Unsupported public key algorithm ${alg}`);
}

/**
 * The COSE key at the start of `bytes` (authenticator data's attested credential data), its bytes as
 * stored, and its algorithm; throws if WebCrypto cannot verify with it.
 */
export async function readCredentialKey(bytes: Uint8Array): Promise<{ cose: Uint8Array; algorithm: number }> {
  const [decoded, size] = decodeCBORToNativeValue(bytes, MAX_DEPTH);
  const cose = new COSEPublicKey(decoded as object);
  await verifyingKey(cose);
  return { cose: bytes.slice(0, size), algorithm: cose.algorithm() };
}

/** Whether `signature` is the stored COSE key's over `message`; false for a malformed signature too. */
export async function verifySignature(
  stored: Uint8Array,
  signature: Uint8Array,
  message: Uint8Array,
): Promise<boolean> {
  const cose = new COSEPublicKey(decodeCBORToNativeValueNoLeftoverBytes(stored, MAX_DEPTH) as object);
  const { key, params, signature: encode } = await verifyingKey(cose);
  let encoded: Uint8Array;
  try {
    encoded = encode(signature);
  } catch {
    return false;
  }
  return crypto.subtle.verify(
    params,
    key,
    encoded as Uint8Array<ArrayBuffer>,
    message as Uint8Array<ArrayBuffer>,
  );
}
