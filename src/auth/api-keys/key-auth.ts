import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { apiKeysTable } from "../../db/credentials-schema";
import type { AuthUser, Credential } from "../credentials";
import { cachedLookup, rememberLookup } from "../auth-user-cache";
import { findKeyHolder, type KeyHolder } from "../auth-user.queries";
import { touchApiKey } from "./api-keys.queries";
import { sha256Hex } from "../opaque-tokens";

/** lastUsedAt is written at most this often per key: a write on every request would double D1's work. */
export const KEY_USE_RESOLUTION_MS = 60_000;

export type KeyVerdict =
  | { ok: true; user: AuthUser; credential: Credential }
  | { ok: false; reason: "invalid_key" | "key_revoked" | "key_expired" };

function verdict(holder: KeyHolder | null, now: Date): KeyVerdict {
  if (!holder) return { ok: false, reason: "invalid_key" };
  const { key, user } = holder;
  if (key.revokedAt !== null) return { ok: false, reason: "key_revoked" };
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime()) {
    return { ok: false, reason: "key_expired" };
  }
  return { ok: true, user, credential: { kind: "api_key", keyId: key.id, scopes: key.scopes } };
}

// When this isolate last wrote each key's lastUsedAt, so most requests skip the write entirely.
const noted = new Map<number, number>();
const MAX_NOTED = 1_000;

/**
 * Records that an API key was used, once a request it made is let through (a refused request changes
 * nothing). At most one write per key per KEY_USE_RESOLUTION_MS, in this isolate and (by the write's
 * condition) across isolates.
 */
export async function noteKeyUse(db: Db, credential: Credential, now = new Date()): Promise<void> {
  if (credential.kind !== "api_key") return;
  const at = now.getTime();
  if (at - (noted.get(credential.keyId) ?? 0) < KEY_USE_RESOLUTION_MS) return;
  if (noted.size >= MAX_NOTED) noted.delete(noted.keys().next().value as number);
  noted.set(credential.keyId, at);
  await touchApiKey(db, credential.keyId, new Date(at - KEY_USE_RESOLUTION_MS).toISOString());
}

/** An API key from an Authorization header: known, not revoked, not expired. */
export async function authenticateApiKey(db: Db, apiKey: string, now = new Date()): Promise<KeyVerdict> {
  const hash = await sha256Hex(apiKey);
  const cacheKey = `key:${hash}`;
  let holder = cachedLookup<KeyHolder>(cacheKey);
  if (!holder) {
    holder = (await findKeyHolder(db, eq(apiKeysTable.keyHash, hash))) ?? undefined;
    if (holder) rememberLookup(cacheKey, holder.user.id, holder);
  }
  return verdict(holder ?? null, now);
}

/** The API key a connect ticket was asked for with: still the user's, and still valid. */
export async function authenticateApiKeyId(
  db: Db,
  keyId: number,
  userId: number,
  now = new Date(),
): Promise<KeyVerdict> {
  const holder = await findKeyHolder(db, and(eq(apiKeysTable.id, keyId), eq(apiKeysTable.userId, userId)));
  return verdict(holder, now);
}
