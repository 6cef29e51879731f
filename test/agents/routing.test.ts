import { createExecutionContext, listDurableObjectIds, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sign } from "hono/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";
import app from "../../src/app";
import { signUp } from "../helpers/auth";
import { api, BASE, expectError, request } from "../helpers/http";
import { freshIp } from "../helpers/client-ip";
import { inOneWindow } from "../helpers/limiter-window";
import { connectWS, freshName } from "../helpers/ws";

const now = () => Math.floor(Date.now() / 1000);
const claims = () => ({ sub: "1", iat: now(), exp: now() + 3600, data: { userId: "1", username: "ann" } });
const counter = (name: string) => `/agents/counter-agent/${name}`;
// AGENTS_LIMITER in wrangler.jsonc.
const AGENTS_PER_MINUTE = 600;
// Room in one limiter window for 601 requests, with margin for a loaded machine.
const EXHAUST_MS = 30_000;

/** One request through the app with some env values replaced. */
async function fetchWith(overrides: Partial<Env>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(new URL(path, BASE), init), { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("G1: chat agent routes", () => {
  it("answers a plain GET with 404 and a WebSocket upgrade with 101", async () => {
    const name = freshName();
    expect((await request(`/agents/chat-agent/${name}`)).status).toBe(404);
    const socket = await connectWS(`/agents/chat-agent/${name}`);
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });
});

describe("G2: only the two agents are reachable", () => {
  it.each([
    "/agents/nope/x",
    "/agents/agents-limiter/x",
    "/agents/counter-agent",
    "/agents",
    "/agents/CounterAgent/x",
  ])("answers %s with 404 in the envelope", async (path) => {
    expectError(await api(path), 404);
  });

  it("does not route another Durable Object namespace present in env", async () => {
    // routeAgentRequest alone would expose any namespace by its kebab-case name.
    const res = await fetchWith({ ExtraObject: env.CounterAgent } as Partial<Env>, "/agents/extra-object/x");
    expect(res.status).toBe(404);
  });
});

describe("G9: bounded instance names", () => {
  it.each([
    ["a 10 KB name", "a".repeat(10 * 1024)],
    ["65 characters", "a".repeat(65)],
    ["a space", "a%20b"],
    ["a dot segment", "a.b"],
    ["non-ASCII", encodeURIComponent("zähler")],
    ["a percent-encoded letter", "%41bc"],
  ])("answers 400 for %s, creating no Durable Object", async (_label, name) => {
    const before = (await listDurableObjectIds(env.CounterAgent)).length;
    expectError(await api(counter(name)), 400, /Invalid agent name/);
    expect((await listDurableObjectIds(env.CounterAgent)).length).toBe(before);
  });

  it("accepts 64 characters of [A-Za-z0-9_-]", async () => {
    const name = `${crypto.randomUUID()}_ABC-xyz`.padEnd(64, "z");
    expect((await api(counter(name))).status).toBe(200);
  });

  it("answers 429 once one client exceeds the per-minute budget, before any new instance is created", async () => {
    // 600 requests and the 601st inside one limiter window. Invalid names are cheap to send and still count.
    await inOneWindow(EXHAUST_MS, async () => {
      const headers = { "CF-Connecting-IP": freshIp() };
      for (let i = 0; i < AGENTS_PER_MINUTE; i++) {
        expect((await request(counter(`bad.${i}`), { headers })).status, `request ${i + 1}`).toBe(400);
      }
      const before = (await listDurableObjectIds(env.CounterAgent)).length;
      const limited = await api(counter(freshName()), { headers });
      expectError(limited, 429);
      expect(limited.headers.get("Retry-After")).toBe("60");
      expect((await listDurableObjectIds(env.CounterAgent)).length).toBe(before);
      // Another client is unaffected.
      expect(
        (await request(counter(freshName()), { headers: { "CF-Connecting-IP": freshIp() } })).status,
      ).toBe(200);
    });
  }, 90_000);
});

describe("G5: CORS on /agents/*", () => {
  it("answers a preflight with GET, POST and OPTIONS allowed and no credentials", async () => {
    const res = await request(counter(freshName()), {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Access-Control-Allow-Methods")).toBe("GET, POST, OPTIONS");
    expect(res.headers.get("Access-Control-Allow-Headers")).toMatch(/Authorization/);
    expect(res.headers.get("Access-Control-Allow-Credentials")).toBeNull();
  });

  it("adds the headers to GET, POST and error responses", async () => {
    const name = freshName();
    for (const res of [
      await request(counter(name), { headers: { Origin: "https://app.example" } }),
      await request(counter(name), { method: "POST", headers: { Origin: "https://app.example" } }),
      await request(counter("bad name"), { headers: { Origin: "https://app.example" } }),
    ]) {
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(res.headers.get("Access-Control-Allow-Credentials")).toBeNull();
    }
  });
});

describe("G6: AGENTS_REQUIRE_AUTH=true", () => {
  const secret = env.JWT_SECRET;
  const authOn = { AGENTS_REQUIRE_AUTH: "true" } as Partial<Env>;
  const upgrade = { Upgrade: "websocket" };

  afterEach(() => vi.restoreAllMocks());

  async function badTokens() {
    const { exp: _exp, ...noExp } = claims();
    const header = btoa(JSON.stringify({ alg: "none", typ: "JWT" })).replace(/=+$/, "");
    const body = btoa(JSON.stringify(claims())).replace(/=+$/, "");
    return {
      expired: await sign({ ...claims(), iat: now() - 7200, exp: now() - 1 }, secret, "HS256"),
      forged: await sign(claims(), "another-secret-that-is-long-enough-0123456789abcdef", "HS256"),
      hs512: await sign(claims(), secret, "HS512"),
      noExp: await sign(noExp, secret, "HS256"),
      algNone: `${header}.${body}.`,
      garbage: "not.a.jwt",
    };
  }

  it("is off by default: agents are public", async () => {
    expect((await request(counter(freshName()))).status).toBe(200);
  });

  it("refuses a WebSocket upgrade with 401 before upgrading when the token is missing, expired or forged", async () => {
    const name = freshName();
    const missing = await fetchWith(authOn, counter(name), { headers: upgrade });
    expect(missing.status).toBe(401);
    expect(missing.webSocket).toBeNull();
    for (const [kind, token] of Object.entries(await badTokens())) {
      const viaQuery = await fetchWith(authOn, `${counter(name)}?token=${encodeURIComponent(token)}`, {
        headers: upgrade,
      });
      expect(viaQuery.status, kind).toBe(401);
      expect(viaQuery.webSocket, kind).toBeNull();
      const viaHeader = await fetchWith(authOn, counter(name), {
        headers: { ...upgrade, Authorization: `Bearer ${token}` },
      });
      expect(viaHeader.status, kind).toBe(401);
    }
  });

  it("upgrades with a valid token in ?token= or the Authorization header", async () => {
    const { token } = await signUp();
    for (const init of [
      { path: `${counter(freshName())}?token=${token}`, headers: upgrade },
      { path: counter(freshName()), headers: { ...upgrade, Authorization: `Bearer ${token}` } },
    ]) {
      const res = await fetchWith(authOn, init.path, { headers: init.headers });
      expect(res.status).toBe(101);
      res.webSocket!.accept();
      res.webSocket!.close();
    }
  });

  it("guards HTTP routes, accepting only the Authorization header there", async () => {
    const name = freshName();
    const { token } = await signUp();
    const denied = await fetchWith(authOn, counter(name));
    expect(denied.status).toBe(401);
    expect(await denied.json()).toEqual({ success: false, error: { message: "Unauthorized" } });
    expect((await fetchWith(authOn, `${counter(name)}?token=${token}`)).status).toBe(401);
    expect(
      (await fetchWith(authOn, counter(name), { headers: { Authorization: `Basic ${token}` } })).status,
    ).toBe(401);
    const allowed = await fetchWith(authOn, counter(name), { headers: { Authorization: `Bearer ${token}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ count: 0 });
  });

  it("guards the chat transcript (get-messages)", async () => {
    const { token, userId } = await signUp();
    const path = `/agents/chat-agent/user-${userId}/get-messages`;
    expect((await fetchWith(authOn, path)).status).toBe(401);
    const ok = await fetchWith(authOn, path, { headers: { Authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual([]);
  });

  it("refuses the token of a deleted user, as /api does", async () => {
    const user = await signUp();
    const removed = await api(`/api/users/${user.userId}/delete`, { method: "POST", token: user.token });
    expect(removed.status).toBe(200);
    expectError(await api("/api/users", { token: user.token }), 401, "User no longer exists");
    const upgraded = await fetchWith(authOn, `${counter(freshName())}?token=${user.token}`, {
      headers: upgrade,
    });
    expect(upgraded.status).toBe(401);
    const read = await fetchWith(authOn, counter(freshName()), {
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(read.status).toBe(401);
  });

  it("never logs the token", async () => {
    const lines: string[] = [];
    for (const level of ["log", "info", "warn", "error"] as const) {
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void lines.push(args.map(String).join(" ")),
      );
    }
    const { token } = await signUp();
    const { forged } = await badTokens();
    const logged = { ...authOn, LOG_LEVEL: "info" } as Partial<Env>;
    const ok = await fetchWith(logged, `${counter(freshName())}?token=${token}`, { headers: upgrade });
    ok.webSocket?.accept();
    ok.webSocket?.close();
    await fetchWith(logged, `${counter(freshName())}?token=${forged}`, { headers: upgrade });
    await fetchWith(logged, counter(freshName()), { headers: { Authorization: `Bearer ${forged}` } });
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toContain(token);
      expect(line).not.toContain(forged);
    }
  });
});
