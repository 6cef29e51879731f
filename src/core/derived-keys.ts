/**
 * HMAC-SHA256 keys derived from JWT_SECRET, one per purpose (connect tickets, refresh-token
 * successors, share links): a value made for one job is never valid for another, nor as a login
 * token. The isolate keeps each key.
 */
const keys = new Map<string, { secret: string; key: Promise<CryptoKey> }>();
const encoder = new TextEncoder();

async function derive(secret: string, purpose: string): Promise<CryptoKey> {
  const hmac = { name: "HMAC", hash: "SHA-256" };
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), hmac, false, ["sign"]);
  const derived = await crypto.subtle.sign("HMAC", base, encoder.encode(purpose));
  return crypto.subtle.importKey("raw", derived, hmac, false, ["sign", "verify"]);
}

export function derivedKey(secret: string, purpose: string): Promise<CryptoKey> {
  const known = keys.get(purpose);
  if (known?.secret === secret) return known.key;
  const key = derive(secret, purpose);
  keys.set(purpose, { secret, key });
  return key;
}
