import { base64url, fromBase64url } from "../core/base64url";
import { derivedKey } from "../core/derived-keys";

// Link signatures use a key derived for this purpose only: never a login token or a connect ticket.
const KEY_PURPOSE = "file-share-link/v1";
const ID_BYTES = 16;
const encoder = new TextEncoder();

// base64url: 16 bytes are 22 characters, an HMAC-SHA256 signature 43.
const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** A fresh link id: 128 random bits. */
export function newLinkId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(ID_BYTES)));
}

/**
 * `<id>.<signature>`. Only the id is stored in D1, so the database alone cannot make a working link,
 * and a forged or altered token is refused before any lookup.
 */
export async function linkToken(secret: string, id: string): Promise<string> {
  const key = await derivedKey(secret, KEY_PURPOSE);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(id)));
  return `${id}.${base64url(signature)}`;
}

/** The link id of a token we signed, or null (checked in constant time by WebCrypto). */
export async function linkIdOf(secret: string, token: string): Promise<string | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, id, signature] = match as unknown as [string, string, string];
  const bytes = fromBase64url(signature);
  // The last character carries 2 unused bits: only the canonical spelling of a signature counts.
  if (base64url(bytes) !== signature) return null;
  const key = await derivedKey(secret, KEY_PURPOSE);
  const valid = await crypto.subtle.verify("HMAC", key, bytes, encoder.encode(id));
  return valid ? id : null;
}
