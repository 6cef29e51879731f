import { base64url, fromBase64url } from "../../core/base64url";
import { derivedKey } from "../../core/derived-keys";

// A challenge is signed, not stored, when it is issued: anonymous sign-in options write nothing. It
// carries its kind and expiry, and a registration's signature covers the user it was issued to.
// Single use is recorded when a ceremony completes (used_passkey_challenges_table).

const KEY_PURPOSE = "passkey-challenge/v1";
export const CHALLENGE_TTL_SECONDS = 300;

const VERSION = 1;
const KINDS = { register: 1, "sign-in": 2 } as const;
export type CeremonyKind = keyof typeof KINDS;

// version (1), kind (1), expiry in Unix seconds (4), random (16); then HMAC-SHA256 (32).
const BODY_BYTES = 22;
const MAC_BYTES = 32;
// 54 bytes are exactly 72 base64url characters, with no spare bits to spell them another way.
const CHALLENGE = /^[A-Za-z0-9_-]{72}$/;
const encoder = new TextEncoder();

/** What the signature covers: the body, and the user a registration is bound to. */
function signed(body: Uint8Array, userId: number | null): Uint8Array {
  const bound = encoder.encode(`:${userId ?? ""}`);
  const data = new Uint8Array(body.length + bound.length);
  data.set(body);
  data.set(bound, body.length);
  return data;
}

/** A challenge for `kind`, bound to `userId` (registration) or to nobody (sign-in), valid CHALLENGE_TTL_SECONDS. */
export async function issueChallenge(
  secret: string,
  kind: CeremonyKind,
  userId: number | null,
  now = new Date(),
): Promise<{ challenge: string; expiresAt: Date }> {
  const expiresAt = new Date((Math.floor(now.getTime() / 1000) + CHALLENGE_TTL_SECONDS) * 1000);
  const body = new Uint8Array(BODY_BYTES);
  const view = new DataView(body.buffer);
  view.setUint8(0, VERSION);
  view.setUint8(1, KINDS[kind]);
  view.setUint32(2, expiresAt.getTime() / 1000);
  crypto.getRandomValues(body.subarray(6));
  const key = await derivedKey(secret, KEY_PURPOSE);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, signed(body, userId)));
  const bytes = new Uint8Array(BODY_BYTES + MAC_BYTES);
  bytes.set(body);
  bytes.set(mac, BODY_BYTES);
  return { challenge: base64url(bytes), expiresAt };
}

export type ChallengeCheck =
  | { ok: true; expiresAt: Date }
  | { ok: false; reason: "invalid_challenge" | "expired_challenge" };

/**
 * Whether `challenge` is one we issued for `kind` (and, for a registration, for `userId`) and still
 * valid at `now`. Whether it was used already is for the ceremony's write to find out.
 */
export async function checkChallenge(
  secret: string,
  challenge: string,
  kind: CeremonyKind,
  userId: number | null,
  now = new Date(),
): Promise<ChallengeCheck> {
  if (!CHALLENGE.test(challenge)) return { ok: false, reason: "invalid_challenge" };
  const bytes = fromBase64url(challenge);
  const body = bytes.subarray(0, BODY_BYTES);
  const view = new DataView(body.buffer, body.byteOffset, BODY_BYTES);
  if (view.getUint8(0) !== VERSION || view.getUint8(1) !== KINDS[kind]) {
    return { ok: false, reason: "invalid_challenge" };
  }
  const key = await derivedKey(secret, KEY_PURPOSE);
  const valid = await crypto.subtle.verify("HMAC", key, bytes.subarray(BODY_BYTES), signed(body, userId));
  if (!valid) return { ok: false, reason: "invalid_challenge" };
  const expiresAt = new Date(view.getUint32(2) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: "expired_challenge" };
  return { ok: true, expiresAt };
}

export type ChallengeFailure = Exclude<ChallengeCheck, { ok: true }>["reason"] | "used_challenge";

/**
 * Checks a challenge for `kind` as the library meets it in the client's data, and keeps the
 * accepted one (to record as used) or the reason it was refused.
 */
export function challengeJudge(secret: string, kind: CeremonyKind, userId: number | null, now: Date) {
  const judged: { accepted?: { challenge: string; expiresAt: Date }; refused?: ChallengeFailure } = {};
  const judge = async (challenge: string) => {
    const check = await checkChallenge(secret, challenge, kind, userId, now);
    if (check.ok) judged.accepted = { challenge, expiresAt: check.expiresAt };
    else judged.refused = check.reason;
    return check.ok;
  };
  return { judge, judged };
}
