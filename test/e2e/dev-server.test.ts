import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler-dev.mjs";

let worker: WranglerDev;

beforeAll(async () => {
  worker = await startWranglerDev();
});
afterAll(() => worker?.stop());

describe("wrangler dev --local", () => {
  it("serves /health, / -> /docs, and /openapi.json 3.1", async () => {
    const health = await fetch(`${worker.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ success: true, data: { d1: { ok: true } } });

    const root = await fetch(`${worker.url}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("Location")).toBe("/docs");

    const doc = (await (await fetch(`${worker.url}/openapi.json`)).json()) as { openapi: string };
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it("serves /docs with the Scalar bundle from the Worker's own assets", async () => {
    const html = await (await fetch(`${worker.url}/docs`)).text();
    const src = html.match(/<script[^>]*src="([^"]+)"/)?.[1];
    expect(src).toBe("/scalar/standalone.js");
    const bundle = await fetch(new URL(src!, worker.url));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("Content-Type")).toMatch(/javascript/);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });
});
