// The gate's lookups (a user, a user with a session, an API key with its user, a chat's owner) are a
// D1 round trip on every request. A burst with one credential reuses the lookup for a moment; writes in this isolate
// (password, role, delete, logout, revocations) drop the user's entries at once, other isolates see
// them within AUTH_USER_TTL_MS.
export const AUTH_USER_TTL_MS = 2_000;
const MAX_ENTRIES = 1_000;
const entries = new Map<string, { value: unknown; userId: number; expires: number }>();

/** A lookup remembered under `key` (`user:<id>`, `session:<sid>`, `key:<hash>`, `chat:<id>`), or undefined. */
export function cachedLookup<T>(key: string, now = Date.now()): T | undefined {
  const entry = entries.get(key);
  if (!entry) return undefined;
  if (entry.expires <= now) {
    entries.delete(key);
    return undefined;
  }
  return entry.value as T;
}

/** Remembers a lookup that found `userId`'s credential; answers `value`. */
export function rememberLookup<T>(key: string, userId: number, value: T, now = Date.now()): T {
  // Maps iterate in insertion order, so the first key is the oldest entry.
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  entries.set(key, { value, userId, expires: now + AUTH_USER_TTL_MS });
  return value;
}

/** Drops one lookup (a deleted chat's owner). */
export function forgetLookup(key: string): void {
  entries.delete(key);
}

/** Drops every lookup of this user (at most MAX_ENTRIES to scan, and only on writes). */
export function forgetAuthUser(userId: number): void {
  for (const [key, entry] of entries) if (entry.userId === userId) entries.delete(key);
}
