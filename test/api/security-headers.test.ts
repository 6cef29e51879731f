import { describe, expect, it } from "vitest";
import { request } from "../helpers/http";

describe("security headers", () => {
  it("sets nosniff, a strict CSP, frame denial and a JSON charset on /api/* answers", async () => {
    const res = await request("/api/nope");
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Security-Policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'; sandbox",
    );
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("Strict-Transport-Security")).toMatch(/max-age=31536000/);
    // Cross-origin readers (the React client, downloads) must not be blocked.
    expect(res.headers.get("Cross-Origin-Resource-Policy")).toBeNull();
  });

  it("leaves /docs free to load its script and styles", async () => {
    const res = await request("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Security-Policy")).toBeNull();
  });
});
