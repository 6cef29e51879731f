const encoder = new TextEncoder();

// Deriving costs two HMAC imports and a signature, so the isolate keeps each purpose's last key.
const cache = new Map<string, { secret: string; key: Promise<CryptoKey> }>();

async function derive(secret: string, purpose: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const derived = await crypto.subtle.sign("HMAC", base, encoder.encode(purpose));
  return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

/**
 * An HMAC-SHA256 key derived from JWT_SECRET for one purpose only (HMAC(secret, purpose)): what is
 * signed for one purpose is never valid for another, nor as a login token.
 */
export function purposeKey(secret: string, purpose: string): Promise<CryptoKey> {
  const cached = cache.get(purpose);
  if (cached?.secret === secret) return cached.key;
  const key = derive(secret, purpose);
  cache.set(purpose, { secret, key });
  return key;
}
