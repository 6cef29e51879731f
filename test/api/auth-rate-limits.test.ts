// docs/security.md L2 and E6: login and register are limited per client IP plus username
// (AUTH_LIMITER), and per client IP alone (LOGIN_IP_LIMITER, REGISTER_IP_LIMITER) against password
// spraying and mass registration. Each test is one client with its own CF-Connecting-IP.
import { afterEach, describe, expect, it, vi } from "vitest";
import { freshUsername, registration, signUp } from "../helpers/auth";
import { countUsersByKey } from "../helpers/db";
import { api, expectError } from "../helpers/http";
import { freshIp } from "../helpers/client-ip";
import { postJsonWithEnv } from "../helpers/storage";

afterEach(() => vi.restoreAllMocks());

// wrangler.jsonc: LOGIN_IP_LIMITER and REGISTER_IP_LIMITER, per 60 s.
const LOGINS_PER_IP = 100;
const REGISTRATIONS_PER_IP = 20;
// AUTH_LIMITER, per client IP and username.
const ATTEMPTS_PER_USERNAME = 10;

/** POSTs JSON from one client address. */
function poster(ip = freshIp()) {
  return (path: string, json: unknown) =>
    api(path, { method: "POST", json, headers: { "CF-Connecting-IP": ip } });
}

/**
 * Sends `attempt(i)` until one answers 429, at most 2 x limit + 1 times: the limiter counts in
 * fixed windows, and that many requests put limit + 1 into one window even across a boundary.
 * Returns how many were let through before the 429, and the 429 itself.
 */
async function untilLimited(limit: number, attempt: (i: number) => ReturnType<typeof api>) {
  const statuses: number[] = [];
  for (let i = 0; i < 2 * limit + 1; i++) {
    const res = await attempt(i);
    if (res.status === 429) return { statuses, limited: res };
    statuses.push(res.status);
  }
  throw new Error(`no 429 after ${statuses.length} attempts`);
}

function toFullWidth(text: string): string {
  return text.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));
}

/** Through app.fetch with chosen bindings (log level, a failing limiter). */
const callApp = (path: string, body: unknown, bindings: Partial<Env> = {}) =>
  postJsonWithEnv(path, body, bindings);

describe("E6: per client IP", () => {
  it(
    "password spraying: one password over many usernames from one IP gets 429 with Retry-After",
    { timeout: 120_000 },
    async () => {
      const ip = freshIp();
      const post = poster(ip);
      const victim = await signUp();
      const { statuses, limited } = await untilLimited(LOGINS_PER_IP, (i) =>
        post("/api/login", {
          username: i === 0 ? victim.username : freshUsername("spray"),
          password: "Winter2026!",
        }),
      );
      // An office behind one address gets the whole budget first; every guess was wrong.
      expect(statuses.length).toBeGreaterThanOrEqual(LOGINS_PER_IP);
      expect(new Set(statuses)).toEqual(new Set([401]));
      expectError(limited, 429, "Too many requests");
      expect(limited.headers.get("Retry-After")).toBe("60");
      // The right password from that address waits too; the victim elsewhere signs in.
      expect(
        (await post("/api/login", { username: victim.username, password: victim.password })).status,
      ).toBe(429);
      const elsewhere = await poster()("/api/login", {
        username: victim.username,
        password: victim.password,
      });
      expect(elsewhere.status).toBe(201);
    },
  );

  it(
    "mass registration from one IP gets 429 with Retry-After and writes no user",
    { timeout: 120_000 },
    async () => {
      const post = poster();
      const { statuses, limited } = await untilLimited(REGISTRATIONS_PER_IP, () =>
        post("/api/register", registration({ username: freshUsername("mass") })),
      );
      expect(statuses.length).toBeGreaterThanOrEqual(REGISTRATIONS_PER_IP);
      expect(new Set(statuses)).toEqual(new Set([201]));
      expectError(limited, 429, "Too many requests");
      expect(limited.headers.get("Retry-After")).toBe("60");
      const refused = registration({ username: freshUsername("mass") });
      expect((await post("/api/register", refused)).status).toBe(429);
      expect(await countUsersByKey(refused.username.toLowerCase())).toBe(0);
      expect((await poster()("/api/register", refused)).status).toBe(201);
    },
  );

  it("a failing per-IP limiter answers 503 (fail closed); no user is written", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = { limit: () => Promise.reject(new Error("limiter down")) } as unknown as RateLimit;
    const input = registration();
    const register = await callApp("/api/register", input, { REGISTER_IP_LIMITER: broken });
    const login = await callApp(
      "/api/login",
      { username: input.username, password: input.password },
      {
        LOGIN_IP_LIMITER: broken,
      },
    );
    for (const res of [register, login]) expect(res.status).toBe(503);
    expect(await countUsersByKey(input.username.toLowerCase())).toBe(0);
  });
});

describe("L2: per client IP and username", () => {
  it("the attempt past the limit answers 429 with Retry-After; other users are not locked out", async () => {
    const post = poster();
    const target = await signUp();
    const bystander = await signUp();
    const { statuses, limited } = await untilLimited(ATTEMPTS_PER_USERNAME, () =>
      post("/api/login", { username: target.username, password: "wrong password" }),
    );
    expect(statuses.length).toBeGreaterThanOrEqual(ATTEMPTS_PER_USERNAME);
    expect(new Set(statuses)).toEqual(new Set([401]));
    expectError(limited, 429, "Too many requests");
    expect(limited.headers.get("Retry-After")).toBe("60");
    // Even the right password is refused inside the window.
    expect((await post("/api/login", { username: target.username, password: target.password })).status).toBe(
      429,
    );
    expect(
      (await post("/api/login", { username: bystander.username, password: bystander.password })).status,
    ).toBe(201);
  });

  it("counts the username ignoring case and width, so variants share one budget", async () => {
    const post = poster();
    const target = await signUp();
    const variants = [target.username, target.username.toUpperCase(), toFullWidth(target.username)];
    const { statuses } = await untilLimited(ATTEMPTS_PER_USERNAME, (i) =>
      post("/api/login", { username: variants[i % variants.length], password: "wrong password" }),
    );
    expect(statuses.length).toBeGreaterThanOrEqual(ATTEMPTS_PER_USERNAME);
    expect(new Set(statuses)).toEqual(new Set([401]));
  });

  it("limits registration attempts too", async () => {
    const post = poster();
    const username = freshUsername();
    const { statuses } = await untilLimited(ATTEMPTS_PER_USERNAME, () =>
      post("/api/register", registration({ username })),
    );
    expect(statuses.length).toBeGreaterThanOrEqual(ATTEMPTS_PER_USERNAME);
    expect(statuses[0]).toBe(201);
    expect(new Set(statuses.slice(1))).toEqual(new Set([409]));
  });

  it("a failing limiter answers 503 (fail closed) and is logged; no user is written", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = { limit: () => Promise.reject(new Error("limiter down")) } as unknown as RateLimit;
    const input = registration();
    const register = await callApp("/api/register", input, { AUTH_LIMITER: broken });
    const login = await callApp(
      "/api/login",
      { username: input.username, password: input.password },
      {
        AUTH_LIMITER: broken,
      },
    );
    for (const res of [register, login]) {
      expect(res.status).toBe(503);
      expect(JSON.parse(res.text)).toEqual({
        success: false,
        error: { message: "Service temporarily unavailable" },
      });
      expect(res.text).not.toContain("limiter down");
    }
    expect(await countUsersByKey(input.username.toLowerCase())).toBe(0);
    expect(errors).toHaveBeenCalledTimes(2);
    expect(String(errors.mock.calls[0]?.[0])).toContain("rate_limiter_failed");
  });
});
