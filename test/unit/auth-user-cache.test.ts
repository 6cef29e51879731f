import { describe, expect, it } from "vitest";
import { cachedAuthUser, forgetAuthUser, rememberAuthUser } from "../../src/auth/auth-user-cache";

describe("auth user cache", () => {
  const user = { id: 424242, username: "cached", role: "user" as const, tokenVersion: 0 };

  it("serves a remembered user until the TTL ends", () => {
    rememberAuthUser(user, 1_000);
    expect(cachedAuthUser(user.id, 1_000)).toEqual(user);
    expect(cachedAuthUser(user.id, 2_999)).toEqual(user);
    expect(cachedAuthUser(user.id, 3_000)).toBeNull();
  });

  it("forgets a user at once", () => {
    rememberAuthUser(user);
    forgetAuthUser(user.id);
    expect(cachedAuthUser(user.id)).toBeNull();
  });
});
