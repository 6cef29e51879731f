import { describe, expect, it } from "vitest";
import { request } from "../helpers/http";

const ALLOWED = "http://localhost:5173"; // CORS_ORIGINS in vitest.config.ts, as `npm run dev` sets it

describe("CORS on /api/*", () => {
  it("answers a preflight from an allowed origin without credentials mode", async () => {
    const res = await request("/api/todos", {
      method: "OPTIONS",
      headers: {
        Origin: ALLOWED,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(ALLOWED);
    expect(res.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("authorization");
    expect(res.headers.get("Access-Control-Allow-Credentials")).toBeNull();
    expect(res.headers.get("Vary")).toContain("Origin");
  });

  it("does not allow other origins", async () => {
    const res = await request("/api/todos", {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();

    const others: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: `${ALLOWED}.evil.example` },
      {},
    ];
    for (const headers of others) {
      const answer = await request("/api/login", { method: "POST", headers, body: "{}" });
      expect(answer.status).toBe(400);
      expect(answer.headers.get("Access-Control-Allow-Origin")).toBeNull();
      expect(answer.headers.get("Access-Control-Expose-Headers")).toBeNull();
      expect(answer.headers.get("Vary")).toMatch(/\bOrigin\b/);
    }
  });

  it("exposes the download and request id headers to allowed origins", async () => {
    const res = await request("/api/nope", { headers: { Origin: ALLOWED } });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe(ALLOWED);
    expect(res.headers.get("Access-Control-Expose-Headers")).toContain("Content-Disposition");
  });
});
