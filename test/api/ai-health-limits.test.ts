import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PROBE_REUSE_MS, recentProbe } from "../../src/ai/probe-cache";
import { fetchWith, modelCalls } from "../helpers/agents";
import { api, expectError } from "../helpers/http";
import { freshIp } from "../helpers/client-ip";
import { inOneWindow } from "../helpers/limiter-window";

const callsOf = async (model: string) => (await modelCalls()).filter((call) => call.model === model).length;

// Room in one limiter window for 13 requests, with margin for a loaded machine.
const FLOOD_MS = 10_000;

describe("GET /ai/health under a flood", () => {
  it("answers 10 requests a minute per client IP, then 429 with Retry-After; other IPs are unaffected", async () => {
    await inOneWindow(FLOOD_MS, async () => {
      const ip = freshIp();
      const statuses = [];
      for (let i = 0; i < 12; i++) {
        statuses.push((await api("/ai/health", { headers: { "CF-Connecting-IP": ip } })).status);
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
      const limited = await api("/ai/health", { headers: { "CF-Connecting-IP": ip } });
      expectError(limited, 429, "Too many requests");
      expect(limited.headers.get("Retry-After")).toBe("60");
      expect((await api("/ai/health", { headers: { "CF-Connecting-IP": freshIp() } })).status).toBe(200);
    });
  }, 60_000);

  it("runs one inference for 30 concurrent callers and reuses it, saying when it ran", async () => {
    // A model name of its own, so no other test file's probe is reused or counted.
    const model = `@cf/test/probe-${crypto.randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        fetchWith({ PROBE_MODEL: model } as Partial<Env>, "/ai/health", {
          headers: { "CF-Connecting-IP": freshIp() },
        }),
      ),
    );
    const bodies = (await Promise.all(answers.map((res) => res.json()))) as any[];
    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(new Set(bodies.map((body) => body.data.checkedAt)).size).toBe(1);
    expect(await callsOf(model)).toBe(1);
  });

  it("asks the model again once the answer is older than 30 s, and after a failure", async () => {
    const overrides = { ...env, PROBE_MODEL: `@cf/test/probe-${crypto.randomUUID()}` };
    const now = Date.now();
    const first = await recentProbe(overrides, now);
    expect(await recentProbe(overrides, now + PROBE_REUSE_MS - 1)).toBe(first);
    const later = await recentProbe(overrides, now + PROBE_REUSE_MS);
    expect(later).not.toBe(first);
    expect(await callsOf(overrides.PROBE_MODEL)).toBe(2);

    const failing = { ...env, PROBE_MODEL: `@test/fail-${crypto.randomUUID()}` };
    await expect(recentProbe(failing)).rejects.toThrow();
    await expect(recentProbe(failing)).rejects.toThrow();
    expect(await callsOf(failing.PROBE_MODEL)).toBe(2);
  });
});
