import { env } from "cloudflare:workers";
import { sign } from "hono/jwt";
import { describe, expect, it } from "vitest";
import {
  issueToken,
  jwtSecret,
  JwtSecretError,
  TOKEN_TTL_SECONDS,
  userIdFromClaims,
  verifyToken,
} from "../../src/auth/tokens";
import { claimsFor, craftToken, decodePart, HS256_HEADER, nowSeconds } from "../helpers/tokens";

const secret = env.JWT_SECRET;

describe("jwtSecret", () => {
  it("refuses a missing or short secret (fail closed)", () => {
    for (const value of [undefined, "", "short", "x".repeat(31), "é".repeat(15)]) {
      expect(() => jwtSecret({ JWT_SECRET: value as string })).toThrow(JwtSecretError);
    }
    expect(jwtSecret({ JWT_SECRET: "x".repeat(32) })).toBe("x".repeat(32));
    // Counted in bytes: 16 two-byte characters are 32 bytes.
    expect(jwtSecret({ JWT_SECRET: "é".repeat(16) })).toBe("é".repeat(16));
  });
});

describe("issueToken", () => {
  it("signs the documented payload (sub, iat, exp = iat + 3600, data { userId, username }) plus ver", async () => {
    const token = await issueToken(secret, { id: 42, username: "ada", tokenVersion: 3 }, 1_800_000_000);
    const [header, payload] = token.split(".");
    expect(decodePart(header!)).toEqual({ alg: "HS256", typ: "JWT" });
    expect(decodePart(payload!)).toEqual({
      sub: "42",
      iat: 1_800_000_000,
      exp: 1_800_000_000 + TOKEN_TTL_SECONDS,
      ver: 3,
      data: { userId: "42", username: "ada" },
    });
  });
});

describe("verifyToken", () => {
  it("accepts a token it issued", async () => {
    const claims = await verifyToken(
      secret,
      await issueToken(secret, { id: 7, username: "bo", tokenVersion: 0 }),
    );
    expect(claims && userIdFromClaims(claims)).toBe(7);
    expect(claims?.ver).toBe(0);
  });

  it("returns null, never throws, for every kind of bad token", async () => {
    const now = nowSeconds();
    const base = claimsFor(7);
    const cases: Record<string, string> = {
      empty: "",
      garbage: "not a token",
      twoParts: "a.b",
      noExp: await craftToken(HS256_HEADER, { ...base, exp: undefined }),
      noIat: await craftToken(HS256_HEADER, { ...base, iat: undefined }),
      stringExp: await craftToken(HS256_HEADER, { ...base, exp: String(now + 60) }),
      stringVer: await craftToken(HS256_HEADER, { ...base, ver: "1" }),
      negativeVer: await craftToken(HS256_HEADER, { ...base, ver: -1 }),
      infiniteExp: await craftToken(HS256_HEADER, `{"sub":"7","iat":${now},"exp":1e999}`),
      expired: await craftToken(HS256_HEADER, { ...base, exp: now - 1 }),
      futureIat: await craftToken(HS256_HEADER, { ...base, iat: now + 600 }),
      futureNbf: await craftToken(HS256_HEADER, { ...base, nbf: now + 600 }),
      stringNbf: await craftToken(HS256_HEADER, { ...base, nbf: String(now - 5) }),
      hs512: await craftToken({ alg: "HS512", typ: "JWT" }, base, { hmac: "HS512" }),
      typ: await craftToken({ alg: "HS256", typ: "at+jwt" }, base),
      kid: await craftToken({ ...HS256_HEADER, kid: "1" }, base),
      wrongSecret: await sign(base, "another-secret-that-is-long-enough-0123456789", "HS256"),
    };
    for (const [name, token] of Object.entries(cases)) {
      expect(await verifyToken(secret, token), name).toBeNull();
    }
  });

  it("accepts a past nbf, and requires typ JWT in the header", async () => {
    const base = claimsFor(7);
    expect(
      await verifyToken(secret, await craftToken(HS256_HEADER, { ...base, nbf: base.iat })),
    ).not.toBeNull();
    expect(await verifyToken(secret, await craftToken({ alg: "HS256" }, base))).toBeNull();
  });
});

const claims = (userId: unknown) => ({ sub: "1", iat: 0, exp: 1, ver: 0, data: { userId } });

describe("userIdFromClaims", () => {
  it("reads data.userId only when it is a positive integer string", () => {
    expect(userIdFromClaims(claims("12"))).toBe(12);
    for (const bad of [undefined, 12, "", "0", "-1", "1.5", "1e3", "abc", "9007199254740993", " 1"]) {
      expect(userIdFromClaims(claims(bad)), String(bad)).toBeNull();
    }
    expect(userIdFromClaims({ sub: "1", iat: 0, exp: 1, ver: 0 })).toBeNull();
  });
});

describe("verifyToken's per-isolate memory of verified tokens", () => {
  const user = { id: 31, username: "kept", tokenVersion: 0 };

  it("still refuses a remembered token once it expires", async () => {
    const issuedAt = nowSeconds();
    const token = await issueToken(secret, user, issuedAt);
    expect(await verifyToken(secret, token)).not.toBeNull();
    // The remembered token, read with the clock at its expiry.
    expect(await verifyToken(secret, token, issuedAt + TOKEN_TTL_SECONDS)).toBeNull();
  });

  it("does not accept a remembered token under another secret", async () => {
    const token = await issueToken(secret, user);
    expect(await verifyToken(secret, token)).not.toBeNull();
    expect(await verifyToken(`${secret}-rotated`, token)).toBeNull();
  });
});
