import { describe, expect, it } from "vitest";
import {
  DUMMY_PASSWORD_HASH,
  hashPassword,
  PBKDF2_ITERATIONS,
  parsePasswordHash,
  verifyPassword,
} from "../../src/auth/passwords/passwords";

describe("passwords", () => {
  it("stays within production workerd's PBKDF2 cap of 100,000 iterations (local workerd has none)", () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    expect(parsePasswordHash(DUMMY_PASSWORD_HASH)?.iterations).toBeLessThanOrEqual(100_000);
  });

  it("stores pbkdf2-sha256$iterations$salt$hash with a fresh 16-byte salt", async () => {
    const first = await hashPassword("same password");
    const second = await hashPassword("same password");
    expect(first).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(first).not.toBe(second);
    const parsed = parsePasswordHash(first);
    expect(parsed?.salt.byteLength).toBe(16);
    expect(parsed?.hash.byteLength).toBe(32);
  });

  it("verifies the exact password only (no truncation, case or prefix match)", async () => {
    const password = "p".repeat(200) + "!";
    const stored = await hashPassword(password);
    expect(await verifyPassword(password, stored)).toBe(true);
    expect(await verifyPassword("p".repeat(200), stored)).toBe(false);
    expect(await verifyPassword(password.toUpperCase(), stored)).toBe(false);
  });

  it("rejects unreadable or over-cap stored hashes instead of throwing", async () => {
    const stored = await hashPassword("hunter22");
    const [, , salt, hash] = stored.split("$");
    for (const bad of [
      "",
      "plain",
      `pbkdf2-sha1$100000$${salt}$${hash}`,
      `pbkdf2-sha256$200000$${salt}$${hash}`,
      `pbkdf2-sha256$0$${salt}$${hash}`,
      `pbkdf2-sha256$1e5$${salt}$${hash}`,
      `pbkdf2-sha256$100000$${salt}$AAAA`,
      `pbkdf2-sha256$100000$!!!$${hash}`,
      `${stored}$extra`,
    ]) {
      expect(parsePasswordHash(bad), bad).toBeNull();
      expect(await verifyPassword("hunter22", bad), bad).toBe(false);
    }
  });

  it("the dummy hash is well-formed, so unknown users cost one real derivation", () => {
    expect(parsePasswordHash(DUMMY_PASSWORD_HASH)).not.toBeNull();
  });
});
