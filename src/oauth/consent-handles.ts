import { derivedKey } from "../core/derived-keys";
import { base64url, fromBase64url } from "../core/base64url";

// The consent form's handle, made when the page is shown without storing anything: a nonce, the
// form's end and a digest of the authorization request (the page's query), signed with a key derived
// from JWT_SECRET. A `__Host-` cookie named after the nonce, whose value only the server can compute,
// binds it to the browser that opened the page. Only a post that decides spends it (a KV marker), so
// an anonymous GET of the page writes nothing.

/** How long a consent form can be posted. */
export const HANDLE_TTL_SECONDS = 600;
const NONCE_BYTES = 16;
const BODY_BYTES = NONCE_BYTES + 4 + 32;
const MAC_BYTES = 32;
const COOKIE_PREFIX = "__Host-oauth-consent-";
// KV keys of the OAuth library start `client:`, `grant:`, `token:`, `transaction:`.
const SPENT_PREFIX = "consent-spent:";
const encoder = new TextEncoder();

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

const queryDigest = async (url: string) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(new URL(url).search)));

async function cookieValue(secret: string, nonce: Uint8Array): Promise<string> {
  const key = await derivedKey(secret, "oauth-consent-cookies/v1");
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", key, nonce)));
}

function cookie(name: string, value: string, maxAge: number): string {
  return `${name}=${value}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${maxAge}`;
}

/** A handle for the consent page at `url`, and the Set-Cookie line that binds it to this browser. */
export async function issueHandle(secret: string, url: string, now = Date.now()) {
  const body = new Uint8Array(BODY_BYTES);
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  body.set(nonce);
  new DataView(body.buffer).setUint32(NONCE_BYTES, Math.floor(now / 1000) + HANDLE_TTL_SECONDS);
  body.set(await queryDigest(url), NONCE_BYTES + 4);
  const key = await derivedKey(secret, "oauth-consent-handles/v1");
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, body));
  const handle = base64url(new Uint8Array([...body, ...mac]));
  const setCookie = cookie(COOKIE_PREFIX + hex(nonce), await cookieValue(secret, nonce), HANDLE_TTL_SECONDS);
  return { handle, setCookie };
}

function cookieFrom(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

/**
 * The handle's nonce (hex) when `handle` is one we issued for the page at `url`, unexpired, and this
 * browser holds its cookie; null otherwise.
 */
export async function checkHandle(
  secret: string,
  url: string,
  handle: string,
  cookies: string | undefined,
  now = Date.now(),
): Promise<string | null> {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64url(handle);
  } catch {
    return null;
  }
  if (bytes.length !== BODY_BYTES + MAC_BYTES || base64url(bytes) !== handle) return null;
  const body = bytes.subarray(0, BODY_BYTES);
  const key = await derivedKey(secret, "oauth-consent-handles/v1");
  if (!(await crypto.subtle.verify("HMAC", key, bytes.subarray(BODY_BYTES), body))) return null;
  if (new DataView(body.buffer, body.byteOffset).getUint32(NONCE_BYTES) * 1000 <= now) return null;
  const expected = await queryDigest(url);
  if (!expected.every((byte, i) => byte === body[NONCE_BYTES + 4 + i])) return null;
  const nonce = body.subarray(0, NONCE_BYTES);
  const held = encoder.encode(cookieFrom(cookies, COOKIE_PREFIX + hex(nonce)) ?? "");
  const wanted = encoder.encode(await cookieValue(secret, nonce));
  if (held.length !== wanted.length || !crypto.subtle.timingSafeEqual(held, wanted)) return null;
  return hex(nonce);
}

/**
 * Spends a handle once its form decided (denied, or allowed with the right password): false when it
 * was spent before. KV cannot make this atomic: two posts at the same moment from the one browser
 * that holds the cookie could both pass, as with the OAuth library's own consent transactions.
 */
export async function spendHandle(kv: KVNamespace, nonce: string): Promise<boolean> {
  const key = SPENT_PREFIX + nonce;
  if ((await kv.get(key)) !== null) return false;
  await kv.put(key, "1", { expirationTtl: HANDLE_TTL_SECONDS });
  return true;
}

/** The Set-Cookie line that drops a spent handle's cookie. */
export const clearHandleCookie = (nonce: string) => cookie(COOKIE_PREFIX + nonce, "", 0);
