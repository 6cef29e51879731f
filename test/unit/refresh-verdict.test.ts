import { describe, expect, it } from "vitest";
import {
  refreshVerdict,
  REUSE_GRACE_SECONDS,
  SESSION_IDLE_SECONDS,
  SESSION_MAX_SECONDS,
} from "../../src/auth/sessions/sessions";

// The clock is injected: each boundary is checked to the millisecond.
const now = new Date("2026-11-01T12:00:00.000Z");
const at = (seconds: number, ms = 0) => new Date(now.getTime() + seconds * 1000 + ms).toISOString();
const row = (overrides: Partial<Parameters<typeof refreshVerdict>[0]> = {}) => ({
  rotatedAt: null,
  lastUsedAt: at(-60),
  expiresAt: at(86_400),
  ...overrides,
});

describe("refreshVerdict", () => {
  it("rotates the session's current token", () => {
    expect(refreshVerdict(row(), now)).toBe("rotate");
  });

  it(`answers a token spent up to ${REUSE_GRACE_SECONDS} s ago (grace), and calls anything older reuse`, () => {
    expect(refreshVerdict(row({ rotatedAt: at(0) }), now)).toBe("grace");
    expect(refreshVerdict(row({ rotatedAt: at(-REUSE_GRACE_SECONDS) }), now)).toBe("grace");
    expect(refreshVerdict(row({ rotatedAt: at(-REUSE_GRACE_SECONDS, -1) }), now)).toBe("reused");
    expect(refreshVerdict(row({ rotatedAt: at(-86_400) }), now)).toBe("reused");
  });

  it("ends a session at its absolute end, and after the idle time since its last use", () => {
    expect(refreshVerdict(row({ expiresAt: at(0, 1) }), now)).toBe("rotate");
    expect(refreshVerdict(row({ expiresAt: at(0) }), now)).toBe("expired");
    expect(refreshVerdict(row({ lastUsedAt: at(-SESSION_IDLE_SECONDS, 1) }), now)).toBe("rotate");
    expect(refreshVerdict(row({ lastUsedAt: at(-SESSION_IDLE_SECONDS) }), now)).toBe("expired");
    // An ended session is expired whatever its token: spent tokens of it are not called reuse.
    expect(refreshVerdict(row({ expiresAt: at(-1), rotatedAt: at(-86_400) }), now)).toBe("expired");
  });

  it("keeps the documented lifetimes: 30 s grace, 7 days idle, 30 days at most", () => {
    expect([REUSE_GRACE_SECONDS, SESSION_IDLE_SECONDS, SESSION_MAX_SECONDS]).toEqual([
      30,
      7 * 86_400,
      30 * 86_400,
    ]);
  });
});
