import type { AuthUser } from "../http/types";

// The gate's user lookup is a D1 round trip on every request. A burst from one user reuses it for
// a moment; deletes and updates in this isolate drop the entry at once, other isolates see them
// within AUTH_USER_TTL_MS.
export const AUTH_USER_TTL_MS = 2_000;
const MAX_ENTRIES = 1_000;
const entries = new Map<number, { user: AuthUser; expires: number }>();

export function cachedAuthUser(id: number, now = Date.now()): AuthUser | null {
  const entry = entries.get(id);
  if (!entry) return null;
  if (entry.expires <= now) {
    entries.delete(id);
    return null;
  }
  return entry.user;
}

export function rememberAuthUser(user: AuthUser, now = Date.now()): AuthUser {
  // Maps iterate in insertion order, so the first key is the oldest entry.
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as number);
  entries.set(user.id, { user, expires: now + AUTH_USER_TTL_MS });
  return user;
}

export function forgetAuthUser(id: number): void {
  entries.delete(id);
}
