import { base64url, fromBase64url } from "../core/base64url";
import { derivedKey } from "../core/derived-keys";

// Kept answers may carry secrets (a new API key, a connect ticket): D1 holds them sealed with
// AES-GCM under a key derived from JWT_SECRET, so a copy of the database alone reads none of them.
const PURPOSE = "idempotency-answers/v1";
const keys = new Map<string, Promise<CryptoKey>>();

function sealKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = derivedKey(secret, PURPOSE)
      .then((hmac) => crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode("aes-256-gcm")))
      .then((raw) => crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    keys.clear();
    keys.set(secret, key);
  }
  return key;
}

export async function seal(secret: string, text: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new TextEncoder().encode(text);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await sealKey(secret), data),
  );
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return base64url(out);
}

/** The text seal() sealed; throws when it was sealed under another secret or altered. */
export async function unseal(secret: string, sealed: string): Promise<string> {
  const bytes = fromBase64url(sealed);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.subarray(0, 12) },
    await sealKey(secret),
    bytes.subarray(12),
  );
  return new TextDecoder().decode(plain);
}
