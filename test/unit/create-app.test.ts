import { createRoute, z } from "@hono/zod-openapi";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/http/create-app";
import { ApiError } from "../../src/http/errors";
import { jsonBody } from "../../src/http/openapi-helpers";
import { MAX_DRAINED_BYTES } from "../../src/http/unread-body";

// The factory every router uses, exercised with routes that fail on purpose.
function appWithFailingRoutes() {
  const app = createApp();
  const echo = createRoute({
    method: "post",
    path: "/echo",
    request: { body: jsonBody(z.object({ title: z.string() }).strict()) },
    responses: { 200: { description: "echo" } },
  });
  app.openapi(echo, (c) => c.json(c.req.valid("json")));
  app.get("/boom", () => {
    throw new Error("secret detail: SELECT * FROM users_table");
  });
  app.get("/teapot", () => {
    throw new ApiError(409, "Conflict here", undefined, { "Retry-After": "3" });
  });
  return app;
}

async function call(path: string, init?: RequestInit) {
  const res = await appWithFailingRoutes().request(path, init, env);
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe("createApp", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers malformed JSON with 400 in the envelope", async () => {
    const res = await call("/echo", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: { message: "Malformed request body" } });
  });

  it("answers validation failures with 400, a message and error.issues", async () => {
    const res = await call("/echo", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ title: 1, extra: true }),
    });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.message).toMatch(/^Invalid json: /);
    expect(res.body.error.issues.map((i: { path: string[] }) => i.path.join("."))).toEqual(
      expect.arrayContaining(["title"]),
    );
  });

  it("answers an unexpected exception with a generic 500 and logs it once", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await call("/boom");
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, error: { message: "Internal server error" } });
    expect(logged).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(logged.mock.calls[0]?.[0]))).toMatchObject({
      level: "error",
      event: "unhandled_error",
    });
  });

  it("answers a known error at its status with its headers", async () => {
    const res = await call("/teapot");
    expect(res.status).toBe(409);
    expect(res.headers.get("Retry-After")).toBe("3");
    expect(res.body).toEqual({ success: false, error: { message: "Conflict here" } });
  });

  it("writes one JSON log line per request at debug level, none at the default info level", async () => {
    const info = vi.spyOn(console, "log").mockImplementation(() => {});
    const lines = vi.spyOn(console, "debug").mockImplementation(() => {});
    await appWithFailingRoutes().request("/missing", {}, { ...env, LOG_LEVEL: "info" });
    expect(info).not.toHaveBeenCalled();
    expect(lines).not.toHaveBeenCalled();
    await appWithFailingRoutes().request("/missing?token=secret", {}, { ...env, LOG_LEVEL: "debug" });
    expect(lines).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(lines.mock.calls[0]?.[0]));
    expect(line).toMatchObject({
      level: "debug",
      event: "request",
      method: "GET",
      path: "/missing",
      status: 404,
    });
    expect(JSON.stringify(line)).not.toContain("secret");
  });
});

/** A request whose body yields `chunks` chunks of 64 KiB, counting what was pulled and whether it was cancelled. */
function countedRequest(chunks: number, declared?: number, vars: Partial<Env> = {}) {
  const seen = { pulled: 0, cancelled: false };
  let left = chunks;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left-- === 0) return controller.close();
      seen.pulled += 65_536;
      controller.enqueue(new Uint8Array(65_536));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  const headers = declared === undefined ? undefined : { "Content-Length": String(declared) };
  const app = createApp();
  app.post("/early", (c) => c.json({ early: true }, 401));
  return {
    seen,
    answer: () =>
      app.request("/early", { method: "POST", body, headers, duplex: "half" } as RequestInit, {
        ...env,
        ...vars,
      }),
  };
}

describe("E9 a body the answer left unread (wrangler dev's lost next request, workers-sdk#15203)", () => {
  it("reads a small unread body to its end before answering", async () => {
    const { seen, answer } = countedRequest(4);
    expect((await answer()).status).toBe(401);
    expect([seen.pulled, seen.cancelled]).toEqual([4 * 65_536, false]);
  });

  it("cancels a large one unread: a declared 90 MiB at once, an undeclared one past 1 MiB", async () => {
    const declared = countedRequest(1440, 90 * 1024 * 1024);
    expect((await declared.answer()).status).toBe(401);
    expect(declared.seen.cancelled).toBe(true);
    expect(declared.seen.pulled).toBeLessThanOrEqual(2 * 65_536);
    const chunked = countedRequest(1440);
    expect((await chunked.answer()).status).toBe(401);
    expect(chunked.seen.cancelled).toBe(true);
    expect(chunked.seen.pulled).toBeLessThanOrEqual(MAX_DRAINED_BYTES + 3 * 65_536);
  });

  it("with DRAIN_UNREAD_BODIES (npm run dev) reads even a large one to its end, declared or not", async () => {
    const vars = { DRAIN_UNREAD_BODIES: "true" };
    const declared = countedRequest(40, 40 * 65_536, vars);
    expect((await declared.answer()).status).toBe(401);
    expect([declared.seen.pulled, declared.seen.cancelled]).toEqual([40 * 65_536, false]);
    const chunked = countedRequest(40, undefined, vars);
    expect((await chunked.answer()).status).toBe(401);
    expect([chunked.seen.pulled, chunked.seen.cancelled]).toEqual([40 * 65_536, false]);
  });
});
