import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeysTable } from "../db/credentials-schema";
import type { AuthUser, Credential } from "../http/types";
import { cachedLookup, rememberLookup } from "./auth-user-cache";
import { findKeyHolder, type KeyHolder } from "./auth-user.queries";
import { touchApiKey } from "./api-keys.queries";
import { sha256Hex } from "./opaque-tokens";

/** lastUsedAt is written at most this often per key: a write on every request would double D1's work. */
export const KEY_USE_RESOLUTION_MS = 60_000;

export type KeyVerdict =
  | { ok: true; user: AuthUser; credential: Credential }
  | { ok: false; reason: "invalid_key" | "key_revoked" | "key_expired" };

async function verdict(db: Db, holder: KeyHolder | null, now: Date): Promise<KeyVerdict> {
  if (!holder) return { ok: false, reason: "invalid_key" };
  const { key, user } = holder;
  if (key.revokedAt !== null) return { ok: false, reason: "key_revoked" };
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now.getTime()) {
    return { ok: false, reason: "key_expired" };
  }
  const staleBefore = new Date(now.getTime() - KEY_USE_RESOLUTION_MS).toISOString();
  if (key.lastUsedAt === null || key.lastUsedAt < staleBefore) {
    await touchApiKey(db, key.id, staleBefore);
    key.lastUsedAt = now.toISOString();
  }
  return { ok: true, user, credential: { kind: "api_key", keyId: key.id, scopes: key.scopes } };
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
  return verdict(db, holder ?? null, now);
}

/** The API key a connect ticket was asked for with: still the user's, and still valid. */
export async function authenticateApiKeyId(
  db: Db,
  keyId: number,
  userId: number,
  now = new Date(),
): Promise<KeyVerdict> {
  const holder = await findKeyHolder(db, and(eq(apiKeysTable.id, keyId), eq(apiKeysTable.userId, userId)));
  return verdict(db, holder, now);
}
