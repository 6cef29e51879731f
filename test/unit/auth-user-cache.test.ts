import { describe, expect, it } from "vitest";
import {
  AUTH_USER_TTL_MS,
  cachedAuthUser,
  forgetAuthUser,
  rememberAuthUser,
} from "../../src/auth/auth-user-cache";

describe("auth user cache", () => {
  const user = { id: 424242, username: "cached", role: "user" as const, tokenVersion: 0 };

  it("serves a remembered user for the TTL, then looks it up again", () => {
    const at = 1_000;
    rememberAuthUser(user, at);
    expect(cachedAuthUser(user.id, at)).toEqual(user);
    expect(cachedAuthUser(user.id, at + AUTH_USER_TTL_MS - 1)).toEqual(user);
    expect(cachedAuthUser(user.id, at + AUTH_USER_TTL_MS)).toBeNull();
  });

  it("keeps the window short enough that a revoked user is refused within seconds", () => {
    expect(AUTH_USER_TTL_MS).toBeGreaterThan(0);
    expect(AUTH_USER_TTL_MS).toBeLessThanOrEqual(5_000);
  });

  it("forgets a user at once", () => {
    rememberAuthUser(user);
    forgetAuthUser(user.id);
    expect(cachedAuthUser(user.id)).toBeNull();
  });
});
