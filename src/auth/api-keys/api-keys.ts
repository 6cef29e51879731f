import type { BatchItem } from "drizzle-orm/batch";
import { Failure } from "../../core/failures";
import type { Db } from "../../db/client";
import type { ApiKeyScope } from "../../db/credentials-schema";
import { countUsableKeys, insertApiKey, type ApiKeyView } from "./api-keys.queries";
import { randomSecret, sha256Hex } from "../opaque-tokens";

/**
 * API keys: `wsk_` and 43 base64url characters (32 random bytes). The prefix lets secret scanners
 * recognise a leaked key (`wsk_[A-Za-z0-9_-]{43}`) and the gate tell a key from a JWT.
 */
export const API_KEY_PREFIX = "wsk_";
export const MAX_USABLE_KEYS = 50;

export function isApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

export class TooManyKeysError extends Failure {
  readonly kind = "conflict";

  constructor() {
    super(`At most ${MAX_USABLE_KEYS} usable API keys per user: revoke one first`);
    this.name = "TooManyKeysError";
  }
}

export interface KeyRequest {
  name: string;
  scopes: ApiKeyScope[];
  expiresAt?: string;
}

/** A new key for `userId`: the stored view, and the secret, which is shown this once and never stored. */
export async function createApiKey(
  db: Db,
  userId: number,
  request: KeyRequest,
  audit: BatchItem<"sqlite">,
  now = new Date(),
): Promise<{ view: ApiKeyView; key: string }> {
  if ((await countUsableKeys(db, userId, now.toISOString())) >= MAX_USABLE_KEYS) throw new TooManyKeysError();
  const key = `${API_KEY_PREFIX}${randomSecret()}`;
  const view = await insertApiKey(
    db,
    {
      userId,
      name: request.name,
      scopes: [...new Set(request.scopes)],
      expiresAt: request.expiresAt ?? null,
      keyHash: await sha256Hex(key),
      lastFour: key.slice(-4),
    },
    audit,
  );
  return { view, key };
}
