import { base64url, fromBase64url } from "../core/base64url";
import { derivedKey } from "../core/derived-keys";
import { ownerKey, parseOwnerKey, type Owner } from "../core/owner";

// Link signatures use a key derived for this purpose only: never a login token or a connect ticket.
const KEY_PURPOSE = "file-share-link/v1";
const ID_BYTES = 16;
const encoder = new TextEncoder();

// `[<ownerKey>.]<id>.<signature>`; base64url: 16 bytes are 22 characters, an HMAC-SHA256 signature 43.
const TOKEN = /^(?:((?:user|org)-[1-9][0-9]{0,15})\.)?([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** A fresh link id: 128 random bits. */
export function newLinkId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(ID_BYTES)));
}

/**
 * `<ownerKey>.<id>.<signature>`: the owner names the workspace whose data database holds the link, so a
 * redeem finds it without a scan (issue 42); the signature covers both. Only the id is stored in D1, so the
 * database alone cannot make a working link, and a forged or altered token is refused before any lookup.
 */
export async function linkToken(secret: string, id: string, owner: Owner): Promise<string> {
  const signed = `${ownerKey(owner)}.${id}`;
  const key = await derivedKey(secret, KEY_PURPOSE);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(signed)));
  return `${signed}.${base64url(signature)}`;
}

/** A signed token's link: its id, and the owner it names (null in a token from before shards: `<id>.<signature>`). */
export interface LinkAddress {
  id: string;
  owner: Owner | null;
}

/** The link of a token we signed, or null (checked in constant time by WebCrypto). */
export async function readLinkToken(secret: string, token: string): Promise<LinkAddress | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, named, id, signature] = match as unknown as [string, string | undefined, string, string];
  const owner = named === undefined ? null : parseOwnerKey(named);
  if (named !== undefined && owner === null) return null;
  const bytes = fromBase64url(signature);
  // The last character carries 2 unused bits: only the canonical spelling of a signature counts.
  if (base64url(bytes) !== signature) return null;
  const key = await derivedKey(secret, KEY_PURPOSE);
  const signed = named === undefined ? id : `${named}.${id}`;
  const valid = await crypto.subtle.verify("HMAC", key, bytes, encoder.encode(signed));
  return valid ? { id, owner } : null;
}
