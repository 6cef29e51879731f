import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { onShardOf } from "../helpers/shards";
import { signIn, signUp, type SignedUpUser } from "../helpers/auth";
import { injected, withFaults } from "../helpers/faults";
import { request } from "../helpers/http";
import { fetchWithEnv } from "../helpers/storage";
import { operations } from "../fuzz/openapi-cases";

const CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
const ALLOWED_ORIGIN = "http://localhost:5173"; // CORS_ORIGINS in wrangler.jsonc

/** E2: the headers every /api/* answer carries, whatever produced it. */
function expectApiHeaders(res: Response, label: string, { json = true } = {}) {
  const headers = Object.fromEntries(res.headers);
  const detail = `${label}: ${res.status} ${JSON.stringify(headers)}`;
  expect(res.headers.get("X-Content-Type-Options"), detail).toBe("nosniff");
  expect(res.headers.get("Content-Security-Policy"), detail).toBe(CSP);
  expect(res.headers.get("X-Frame-Options"), detail).toBe("DENY");
  expect(res.headers.get("Strict-Transport-Security"), detail).toMatch(/max-age=31536000/);
  // Cross-origin readers (the React client, downloads) must not be blocked.
  expect(res.headers.get("Cross-Origin-Resource-Policy"), detail).toBeNull();
  expect(res.headers.get("Cross-Origin-Embedder-Policy"), detail).toBeNull();
  if (json) expect(res.headers.get("Content-Type"), detail).toBe("application/json; charset=utf-8");
  // Every answer is traceable, and caches keep answers for different origins apart.
  expect(res.headers.get("X-Request-Id"), detail).toMatch(/^[\w-]{8,}$/);
  expect(res.headers.get("Vary"), detail).toMatch(/\bOrigin\b/);
}

let user: SignedUpUser;
let key: string;

beforeAll(async () => {
  user = await signUp();
  key = `${crypto.randomUUID()}-page.html`;
  await env.R2_BUCKET.put(key, "<script>alert(1)</script>", { httpMetadata: { contentType: "text/html" } });
});

describe("security headers", () => {
  it("are on the answers of every operation in openapi.json, with and without a token", async () => {
    const ops = operations().filter((op) => op.path.startsWith("/api/"));
    expect(ops.length).toBeGreaterThanOrEqual(15);
    // Logout ends the session it is sent with: it gets a session of its own.
    const loggingOut = (await signIn(user.username, user.password)).token;
    for (const op of ops) {
      // An id nobody has: nothing is changed or deleted by the sweep.
      const path = op.path.replace(/\{\w+\}/g, "999999");
      const signedIn = op.id === "POST /api/auth/logout" ? loggingOut : user.token;
      for (const token of [undefined, signedIn]) {
        const res = await request(path, {
          method: op.method,
          token,
          json: op.method === "POST" ? {} : undefined,
        });
        await res.arrayBuffer();
        expect(res.status, op.id).toBeLessThan(500);
        expectApiHeaders(res, `${op.id} token=${Boolean(token)}`);
      }
    }
  });

  it("are on 404s, 401s, 413s and 500s from the error handlers", async () => {
    expectApiHeaders(await request("/api/nope"), "401 unknown path without token");
    expectApiHeaders(await request("/api/nope", { token: user.token }), "404 unknown path");
    const tooLarge = await request("/api/todos", {
      method: "POST",
      token: user.token,
      body: JSON.stringify({ title: "x".repeat(2 << 20) }),
      headers: { "Content-Type": "application/json" },
    });
    expect(tooLarge.status).toBe(413);
    expectApiHeaders(tooLarge, "413 body limit");
    const failing = await fetchWithEnv(
      "/api/todos",
      { token: user.token },
      await onShardOf({ userId: user.userId }, (shard) =>
        withFaults(shard, { batch: () => injected("D1 batch") }),
      ),
    );
    expect(failing.status).toBe(500);
    expectApiHeaders(failing, "500 from onError");
  });

  it("are on uploads and on every kind of download answer, which keep a stored text/html inert", async () => {
    const form = new FormData();
    form.append("file", new Blob(["hi"]), "a.txt");
    const uploaded = await request("/api/upload", { method: "POST", token: user.token, body: form });
    expect(uploaded.status).toBe(201);
    expectApiHeaders(uploaded, "201 upload");

    const path = `/api/download/${encodeURIComponent(key)}`;
    const full = await request(path);
    expect(full.status).toBe(200);
    expect(full.headers.get("Content-Type")).toBe("text/html");
    expect(full.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    expect(full.headers.get("Content-Security-Policy")).toContain("sandbox");
    expectApiHeaders(full, "200 download", { json: false });
    const etag = full.headers.get("ETag")!;
    const cases: [Record<string, string>, number, boolean][] = [
      [{ Range: "bytes=0-3" }, 206, false],
      [{ "If-None-Match": etag }, 304, false],
      [{ Range: "bytes=500-600" }, 416, true],
    ];
    for (const [headers, status, json] of cases) {
      const res = await request(path, { headers });
      await res.arrayBuffer();
      expect(res.status).toBe(status);
      expectApiHeaders(res, `${status} download`, { json });
    }
    expectApiHeaders(await request("/api/download/missing"), "404 download");
  });

  it("keep cross-origin downloads and preflights working for allowed origins", async () => {
    const preflight = await request("/api/upload", {
      method: "OPTIONS",
      headers: { Origin: ALLOWED_ORIGIN, "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expectApiHeaders(preflight, "204 preflight", { json: false });

    const download = await request(`/api/download/${encodeURIComponent(key)}`, {
      headers: { Origin: ALLOWED_ORIGIN, Range: "bytes=0-3" },
    });
    expect(download.status).toBe(206);
    expect(download.headers.get("Access-Control-Allow-Origin")).toBe(ALLOWED_ORIGIN);
    expect(download.headers.get("Access-Control-Expose-Headers")).toMatch(/Content-Disposition/);
    expect(await download.text()).toBe("<scr");
  });

  it("E10: give /docs a CSP of its own: this origin's scripts (inline ones by a fresh nonce), images and requests; never framed", async () => {
    const res = await request("/docs");
    expect(res.status).toBe(200);
    const csp = res.headers.get("Content-Security-Policy")!;
    const directives = new Map(
      csp.split(";").map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values] as const;
      }),
    );
    const nonce = /'nonce-([\w+/=-]+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(directives.get("default-src")).toEqual(["'self'"]);
    expect(directives.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(directives.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(directives.get("connect-src")).toEqual(["'self'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    // Every script of the page (the bundle from /scalar/, the start-up) carries the nonce; no CDN.
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(html).toContain('src="/scalar/standalone.js"');
    expect(html).not.toMatch(/https?:\/\//);
    // A nonce is never reused.
    const again = (await request("/docs")).headers.get("Content-Security-Policy")!;
    expect(/'nonce-([\w+/=-]+)'/.exec(again)?.[1]).not.toBe(nonce);
  });
});
