// How npm run dev's script meets a Worker that refuses its settings, without starting one.
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { waitUntilUp } from "../../scripts/lib/dev-banner.mjs";

describe("npm run dev's start", () => {
  it("stops with the Worker's message when it refuses its settings (a page URL without {token})", async () => {
    // What the Worker answers every request then (test/api/page-links.test.ts): npm run dev prints the
    // message and stops wrangler instead of waiting for a /health that never comes.
    const message = 'Misconfigured: PASSWORD_RESET_URL ("http://localhost:5173/") has no {token}, ...';
    const server = createServer((_req, res) => {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ success: false, error: { message } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      expect(await waitUntilUp(`http://127.0.0.1:${port}`, () => false)).toEqual({ refused: message });
    } finally {
      server.close();
    }
  });
});
