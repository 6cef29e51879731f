import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import committedDocument from "../../openapi.json";
import app from "../../src/app";
import { withFaults } from "../helpers/faults";
import { api, BASE, expectError, request, expectData } from "../helpers/http";
import { HealthSchema } from "../../src/routes/health/health.routes";
import { type OpenAPIObject } from "openapi3-ts/oas31";

describe("GET /health", () => {
  it("answers 200 with D1 reachable", async () => {
    const res = await api("/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    const data = expectData(res, 200, HealthSchema);
    expect(data).toMatchObject({ status: "ok", d1: { ok: true } });
    expect(Number.isNaN(Date.parse(data.time))).toBe(false);
  });

  it("answers 503 in the envelope when D1 does not answer", async () => {
    const failingDb = withFaults(env.DB, {
      prepare: () => {
        throw new Error("D1_ERROR: injected");
      },
    });
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`${BASE}/health`), { ...env, DB: failingDb }, ctx);
    await waitOnExecutionContext(ctx);
    const body = await res.json();
    expect(res.status).toBe(503);
    expect(body).toEqual({ success: false, error: { message: "D1 is not answering" } });
    expect(JSON.stringify(body)).not.toContain("injected");
  });

  it("sets a request id header, and keeps a valid one the client sent", async () => {
    const fresh = await request("/health");
    expect(fresh.headers.get("X-Request-Id")).toMatch(/^[\w-]{8,}$/);
    const echoed = await request("/health", { headers: { "X-Request-Id": "client-trace-42" } });
    expect(echoed.headers.get("X-Request-Id")).toBe("client-trace-42");
  });
});

describe("GET /", () => {
  it("redirects 302 to /docs", async () => {
    const res = await request("/", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/docs");
  });
});

describe("GET /docs", () => {
  it("serves the Scalar page with its script from this Worker, not a CDN", async () => {
    const res = await api<string>("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/text\/html/);
    const scripts = [...res.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(["/scalar/standalone.js"]);
    expect(res.body).toContain("/openapi.json");
    expect(res.body).not.toMatch(/cdn\.jsdelivr|unpkg\.com/);
  });

  it("says the page's language and links the stylesheet that brings Scalar's colours to AA contrast", async () => {
    const page = await api<string>("/docs");
    expect(page.body).toMatch(/^<!doctype html>\s*<html lang="en">/i);
    expect(page.body).toMatch(/<link rel="stylesheet" href="\/docs\.css" \/>\s*<\/head>/);
    const res = await request("/docs.css");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/css/);
    expect(await res.text()).toContain("--scalar-color-3: #676767;");
  });

  it("names the favicon (Scalar links it), served from the Worker's static assets", async () => {
    const page = await api<string>("/docs");
    expect(page.body).toMatch(/"favicon":\s*"\/favicon\.svg"/);
    const res = await request("/favicon.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toMatch(/^<svg /);
  });

  it("serves the Scalar bundle from the Worker's static assets", async () => {
    const res = await request("/scalar/standalone.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/javascript/);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });
});

describe("GET /openapi.json", () => {
  it("is OpenAPI 3.1 with a global bearer scheme and public routes marked public", async () => {
    const res = await api<OpenAPIObject>("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    expect(res.body.security).toEqual([{ bearerAuth: [] }]);
    expect(res.body.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    expect(res.body.paths?.["/health"]?.get?.security).toEqual([]);
  });

  it("matches the committed openapi.json (run `npm run openapi` after changing a route)", async () => {
    const res = await api("/openapi.json");
    expect(res.body).toEqual(committedDocument);
  });
});

describe("errors", () => {
  it("answers unknown routes with a JSON 404 in the envelope", async () => {
    // Unknown /api paths are behind the token gate: test/api/auth-gate.test.ts covers them.
    for (const path of ["/nope", "/health/extra"]) {
      expectError(await api(path), 404, "Not found");
    }
  });

  it("answers a wrong method on a known path with 404 in the envelope", async () => {
    expectError(await api("/health", { method: "DELETE" }), 404);
  });
});
