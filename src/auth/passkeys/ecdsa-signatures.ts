// WebAuthn's ECDSA signatures are ASN.1 DER (WebAuthn §6.5.5: SEQUENCE { INTEGER r, INTEGER s });
// WebCrypto verifies IEEE P1363's fixed-width r || s. P-256 only: 32 bytes each.
const SIZE = 32;

/** The raw r || s of a DER ECDSA P-256 signature; throws for anything else, trailing bytes included. */
export function ecdsaSignatureRaw(der: Uint8Array): Uint8Array {
  // Short-form lengths only: a P-256 signature is at most 72 bytes.
  if (der[0] !== 0x30 || der[1] !== der.length - 2) throw new Error("Not a DER signature");
  const raw = new Uint8Array(SIZE * 2);
  let at = 2;
  for (const offset of [0, SIZE]) {
    const length = der[at + 1] ?? 0;
    if (der[at] !== 0x02 || length < 1 || at + 2 + length > der.length) throw new Error("Not a DER integer");
    let value = der.subarray(at + 2, at + 2 + length);
    // A leading zero keeps a high bit from reading as a sign; it is not part of the number.
    while (value.length > 1 && value[0] === 0) value = value.subarray(1);
    if (value.length > SIZE) throw new Error("Integer too large for P-256");
    raw.set(value, offset + SIZE - value.length);
    at += 2 + length;
  }
  if (at !== der.length) throw new Error("Trailing bytes after the signature");
  return raw;
}
