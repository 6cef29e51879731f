// docs/security.md E5 through HTTP: a crafted Range header (the 5 KB one that blocked the isolate
// for 12 s through the old regex) is answered at once, and a /health sent meanwhile is not delayed.
import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { KB8, MAX_MS } from "../helpers/hostile";
import { request } from "../helpers/http";
import { storeText, downloadPath } from "../helpers/uploads";

async function timed(response: Promise<Response>) {
  const started = performance.now();
  const res = await response;
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

describe("hostile Range on GET /api/download/:key", () => {
  it("answers in milliseconds, and a concurrent /health is not held up", async () => {
    const user = await signUp();
    const path = downloadPath((await storeText(user.token, "0123456789", "r.txt")).key);

    for (const range of [
      `bytes=${" ".repeat(KB8)}-${" ".repeat(KB8)}x`,
      `bytes=${" \t".repeat(KB8 / 2)}1${" \t".repeat(KB8 / 2)}-!`,
      `bytes=${"0".repeat(2 * KB8)}-x`,
    ]) {
      const [download, health] = await Promise.all([
        timed(request(path, { headers: { Range: range } })),
        timed(request("/health")),
      ]);
      // Malformed: the whole object, as RFC 9110 allows.
      expect(download.status).toBe(200);
      expect(health.status).toBe(200);
      // Both round trips include a D1 or R2 call, so they get more room than a pure parse.
      expect(download.ms).toBeLessThan(10 * MAX_MS);
      expect(health.ms).toBeLessThan(10 * MAX_MS);
    }

    const padded = await request(path, { headers: { Range: `bytes=${" ".repeat(KB8)}2-4` } });
    expect(padded.status).toBe(206);
    expect(await padded.text()).toBe("234");
  });
});
