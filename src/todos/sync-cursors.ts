import { derivedKey } from "../core/derived-keys";
import { base64url, fromBase64url } from "../core/base64url";
import type { Owner } from "../core/owner";

// A delta-sync cursor names a position in the change log, whose ids count every todo write of the
// service. Sealed with AES-GCM under a key derived from JWT_SECRET, with its owner (a user, or a team)
// as associated data, it reveals no count and opens for no other log: a team's cursor is no use for
// another team's list, nor for the personal one.

/** The cursor of a client that has nothing yet: the whole log. */
export const START_CURSOR = "0";
/** `0`, or 36 sealed bytes (12 of IV, 8 of change id, 16 of tag) in base64url. */
export const SYNC_CURSOR_PATTERN = /^(?:0|[A-Za-z0-9_-]{48})$/;
export const INVALID_SYNC_CURSOR = "Invalid cursor: pass a cursor as given, or 0";
const PURPOSE = "sync-cursors/v1";
const IV_PURPOSE = "sync-cursor-ivs/v1";
const IV_BYTES = 12;
const keys = new Map<string, Promise<CryptoKey>>();

function cursorKey(secret: string): Promise<CryptoKey> {
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

// A user's stay as they were before teams, so cursors already given keep working.
const associated = (owner: Owner) =>
  new TextEncoder().encode(owner.kind === "user" ? `user:${owner.userId}` : `org:${owner.orgId}`);
const ivInput = (owner: Owner, changeId: number) =>
  owner.kind === "user" ? `${owner.userId}:${changeId}` : `org-${owner.orgId}:${changeId}`;

/**
 * The same position seals to the same cursor, so a client may compare cursors: the IV is an HMAC of
 * owner and position (one IV per plaintext, the synthetic-IV construction).
 */
export async function sealSyncCursor(secret: string, owner: Owner, changeId: number): Promise<string> {
  if (changeId === 0) return START_CURSOR;
  const id = new Uint8Array(8);
  new DataView(id.buffer).setBigUint64(0, BigInt(changeId));
  const ivKey = await derivedKey(secret, IV_PURPOSE);
  const mac = await crypto.subtle.sign("HMAC", ivKey, new TextEncoder().encode(ivInput(owner, changeId)));
  const iv = new Uint8Array(mac, 0, IV_BYTES);
  const algorithm = { name: "AES-GCM", iv, additionalData: associated(owner) };
  const sealed = new Uint8Array(await crypto.subtle.encrypt(algorithm, await cursorKey(secret), id));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return base64url(out);
}

/** The change id `cursor` names in `owner`'s log: 0 for START_CURSOR, null for anything not sealed for it. */
export async function openSyncCursor(secret: string, owner: Owner, cursor: string): Promise<number | null> {
  if (cursor === START_CURSOR) return 0;
  if (!SYNC_CURSOR_PATTERN.test(cursor)) return null;
  try {
    const bytes = fromBase64url(cursor);
    const algorithm = { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES), additionalData: associated(owner) };
    const id = await crypto.subtle.decrypt(algorithm, await cursorKey(secret), bytes.subarray(IV_BYTES));
    const changeId = Number(new DataView(id).getBigUint64(0));
    return Number.isSafeInteger(changeId) && changeId > 0 ? changeId : null;
  } catch {
    return null;
  }
}
