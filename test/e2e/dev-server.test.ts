import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startWranglerDev, type WranglerDev } from "../../scripts/lib/wrangler-dev.mjs";

let worker: WranglerDev;

beforeAll(async () => {
  // As `npm run dev` starts it (the config's log level, wrangler's default address, interactive).
  worker = await startWranglerDev({ asNpmRunDev: true });
});
afterAll(() => worker?.stop());

describe("npm run dev (wrangler dev --local)", () => {
  it("prints at most 80 lines until it answers, the banner last: the client, docs, MCP and the e-mail outbox", async () => {
    const deadline = Date.now() + 10_000;
    while (!worker.output().includes("E-mail outbox") && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const output = worker.output();
    expect(output).toContain(`React client  ${worker.url}/app/`);
    expect(output).toContain(`API docs      ${worker.url}/docs`);
    expect(output).toContain(`MCP server    ${worker.url}/mcp`);
    expect(output).toContain(`E-mail outbox ${worker.url}/cdn-cgi/local/explorer/email/sending`);
    // Printed after the server answered: after wrangler's own "Ready on".
    expect(output.indexOf("Ready on")).toBeLessThan(output.indexOf("is up at"));
    const bannerEnd = output.indexOf("\n", output.indexOf("A five-minute tour")) + 1;
    expect(output.slice(0, bannerEnd).split("\n").length).toBeLessThanOrEqual(80);
    // After it, only the request lines of wrangler (the readiness probes of npm run dev and this test).
    const after = output
      .slice(bannerEnd)
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(after.filter((line) => !/GET \/health 200/.test(line))).toEqual([]);
    // The D1 migrations in one line, not wrangler's table after each of them.
    expect(output).not.toContain("Migrations to be applied");
  });

  it("serves the React client at /app/ on the same port: its page, its files, /app -> /app/", async () => {
    const redirect = await fetch(`${worker.url}/app`, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Location")).toBe("/app/");

    const page = await fetch(`${worker.url}/app/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(page.headers.get("Content-Security-Policy")).toBe("frame-ancestors 'none'");
    const html = await page.text();
    // Built for the service's own origin: its policy names no other.
    expect(html).toContain("connect-src &#39;self&#39;;");
    const script = html.match(/<script[^>]*src="([^"]+)"/)?.[1];
    expect(script).toMatch(/^\/app\/assets\/index-[\w-]+\.js$/);
    const bundle = await fetch(new URL(script!, worker.url));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("Content-Type")).toMatch(/javascript/);
    expect(bundle.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    await bundle.arrayBuffer();

    const missing = await fetch(`${worker.url}/app/assets/none.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ success: false });
  });

  it("serves /llms.txt and /llms-full.txt as cached text naming every operation and guide page", async () => {
    const document = JSON.parse(readFileSync(join(ROOT, "openapi.json"), "utf8")) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operationIds = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(operationIds.length).toBeGreaterThan(40);
    for (const path of ["/llms.txt", "/llms-full.txt"]) {
      const res = await fetch(`${worker.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
      const text = await res.text();
      expect(operationIds.filter((id) => !text.includes(`(${id}, `))).toEqual([]);
      expect(text).toContain("POST /mcp");
      expect(text).toContain("/.well-known/oauth-authorization-server");
      expect(text).toContain("(`docs/files.md`)");
      const etag = res.headers.get("ETag")!;
      const again = await fetch(`${worker.url}${path}`, { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
      expect(again.headers.get("Cache-Control")).toBe("public, max-age=300");
    }
    const full = await (await fetch(`${worker.url}/llms-full.txt`)).text();
    expect(full).toContain("File `docs/files.md`:");
  });

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

  it("E9: keeps serving after answers given before a body was read: 60 pairs of a 100 KB upload with a bad token, then a small request", async () => {
    // wrangler dev without its body-drain middleware (no_bundle, workers-sdk#15203) failed the pair's
    // second request with 500 "Network connection lost" a few times in 30 before the body was settled.
    const upload = new Uint8Array(100 * 1024).fill(120);
    const failures: string[] = [];
    for (let i = 0; i < 60; i++) {
      const early = await fetch(`${worker.url}/api/upload`, {
        method: "POST",
        headers: { Authorization: "Bearer bad", "Content-Type": "multipart/form-data; boundary=x" },
        body: upload,
      });
      await early.arrayBuffer();
      const next = await fetch(`${worker.url}/api/upload`, {
        method: "POST",
        headers: { Authorization: "Bearer bad" },
        body: "x",
      });
      const text = await next.text();
      if (early.status !== 401 || next.status !== 401)
        failures.push(`${i}: ${early.status}, ${next.status} ${text.slice(0, 80)}`);
    }
    expect(failures).toEqual([]);
  });

  it("E9: answers 401 to every unsigned POST of a 2 MiB body (40 in a row), never 500", async () => {
    // Cancelling a body past 1 MiB lost the answer under wrangler dev: 500 "Network connection lost",
    // or a reset socket, one or two in 40 before npm run dev read such bodies to their end.
    const body = new Uint8Array(2 * 1024 * 1024).fill(120);
    const statuses: (number | string)[] = [];
    for (let i = 0; i < 40; i++) {
      try {
        const res = await fetch(`${worker.url}/api/todos`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body,
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      } catch (err) {
        statuses.push(String((err as Error).cause ?? err));
      }
    }
    expect(statuses.filter((status) => status !== 401 && status !== 413)).toEqual([]);
  });
});
