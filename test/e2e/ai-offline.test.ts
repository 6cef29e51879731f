import { describe, expect, it } from "vitest";
import { sharedWorker } from "./shared-worker";
import { openSocket } from "./ws-client";

// `npm run dev` on a machine without a Cloudflare login and without AI_BASE_URL, and with the demo model off.
const worker = sharedWorker();

describe("wrangler dev --local without any AI", () => {
  it("GET /ai/health answers 503 within 2 s and says how to enable AI", async () => {
    const started = performance.now();
    const res = await fetch(`${worker.url}/ai/health`);
    const body = (await res.json()) as { success: boolean; error: { message: string } };
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(503);
    expect(body.success).toBe(false);
    // People's words first, then what a developer does about it.
    expect(body.error.message).toMatch(
      /^No AI model is connected yet, so the assistant can't answer\. For developers: /,
    );
    expect(body.error.message).toContain("npm run dev:remote");
    expect(body.error.message).toContain("AI_BASE_URL");
  });

  it("a chat turn fails fast with the same words as an error frame", async () => {
    const socket = await openSocket(
      `${worker.url.replace("http", "ws")}/agents/chat-agent/offline-${crypto.randomUUID()}`,
    );
    const messages = [{ id: "u1", role: "user", parts: [{ type: "text", text: "hello?" }] }];
    socket.send({
      type: "cf_agent_use_chat_request",
      id: "r1",
      init: { method: "POST", body: JSON.stringify({ messages }) },
    });
    const error = await socket.waitFor((d) => d?.type === "cf_agent_use_chat_response" && d.error, 5_000);
    expect(error.data.body).toMatch(/^No AI model is connected yet/);
    expect(error.data.body).toContain("npm run dev:remote");
    await socket.close();
  });
});
