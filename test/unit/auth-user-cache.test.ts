import { describe, expect, it } from "vitest";
import {
  AUTH_USER_TTL_MS,
  cachedLookup,
  forgetAuthUser,
  rememberLookup,
} from "../../src/auth/auth-user-cache";

describe("auth lookup cache", () => {
  const user = { id: 424242, username: "cached", role: "user" as const, tokenVersion: 0 };

  it("serves a remembered lookup for the TTL, then looks it up again", () => {
    const at = 1_000;
    rememberLookup("user:424242", user.id, user, at);
    expect(cachedLookup("user:424242", at)).toEqual(user);
    expect(cachedLookup("user:424242", at + AUTH_USER_TTL_MS - 1)).toEqual(user);
    expect(cachedLookup("user:424242", at + AUTH_USER_TTL_MS)).toBeUndefined();
  });

  it("keeps the window short enough that a revoked user is refused within seconds", () => {
    expect(AUTH_USER_TTL_MS).toBeGreaterThan(0);
    expect(AUTH_USER_TTL_MS).toBeLessThanOrEqual(5_000);
  });

  it("forgets every lookup of a user at once (user, sessions, keys), and no one else's", () => {
    const other = { ...user, id: 424243 };
    rememberLookup("user:424242", user.id, user);
    rememberLookup("session:s-1", user.id, { user, sessionExpiresAt: "2099-01-01T00:00:00.000Z" });
    rememberLookup("key:abc", user.id, { user });
    rememberLookup("user:424243", other.id, other);
    forgetAuthUser(user.id);
    for (const key of ["user:424242", "session:s-1", "key:abc"]) expect(cachedLookup(key)).toBeUndefined();
    expect(cachedLookup("user:424243")).toEqual(other);
  });
});
