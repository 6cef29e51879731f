import { randomUUID } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER } from "../fakes/openai-compatible";
import { chatReady, gated, connectBrowser, newContext, registerUser, signInThroughUi } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

// The service with AGENTS_REQUIRE_AUTH=true, and the client built with VITE_AGENTS_AUTH=true.
describe("agents behind the opt-in JWT gate", () => {
  it("refuses an agent connection without a token", async () => {
    const res = await fetch(`${gated.apiOrigin}/agents/counter-agent/gate-${randomUUID().slice(0, 8)}`);
    expect(res.status).toBe(401);
  });

  it("connects the counter with a connect ticket, never the login token, in the WebSocket URL", async () => {
    const user = await registerUser(gated);
    const { context } = await newContext(browser);
    const page = await context.newPage();
    const socketUrls: string[] = [];
    page.on("websocket", (socket) => socketUrls.push(socket.url()));
    await signInThroughUi(page, user, "#/counter", gated);
    await page.getByLabel("Counter name").fill(`gate-${randomUUID().slice(0, 8)}`);
    await page.getByRole("button", { name: "Open" }).click();
    await page.getByRole("button", { name: "+ Increment" }).click();
    await expect.poll(() => page.getByRole("status", { name: "Count" }).textContent()).toBe("1");
    expect(socketUrls.length).toBeGreaterThan(0);
    for (const url of socketUrls) {
      expect(url).toMatch(/[?&]ticket=/);
      expect(url).not.toMatch(/[?&]token=/);
    }
    await context.close();
  });

  it("opens the user's own chat (user-<id>) with a ticket for that chat alone", async () => {
    const user = await registerUser(gated);
    const { context } = await newContext(browser);
    const page = await context.newPage();
    const tickets: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes("/api/agents/tickets")) tickets.push(req.postData() ?? "");
    });
    const sockets: string[] = [];
    page.on("websocket", (socket) => sockets.push(socket.url()));
    await signInThroughUi(page, user, "#/chat", gated);
    await chatReady(page);
    // "ready" is the chat's status before its socket opens too: wait for the socket (its ticket came first).
    await expect.poll(() => sockets.some((url) => url.includes("/agents/chat-agent/"))).toBe(true);
    expect(tickets.map((body) => JSON.parse(body) as unknown)).toContainEqual({
      agent: "chat-agent",
      name: `user-${user.userId}`,
    });
    const chat = sockets.find((url) => url.includes("/agents/chat-agent/"));
    expect(chat).toContain(`/agents/chat-agent/user-${user.userId}?`);
    expect(chat).toMatch(/[?&]ticket=/);
    await context.close();
  });

  it("chats, and after a reload loads the transcript with the token as a Bearer header", async () => {
    const user = await registerUser(gated);
    const { context } = await newContext(browser);
    const page = await context.newPage();
    // The default conversation (`user-<id>`), so the reload below opens the same one.
    await signInThroughUi(page, user, "#/chat", gated);
    await page.getByLabel("Message", { exact: true }).fill("Say hello.");
    await page.getByRole("button", { name: "Send" }).click();
    const answer = page.locator('[data-role="assistant"] .text');
    await answer.getByText(ANSWER.join("")).waitFor();

    const transcript = page.waitForResponse((res) => res.url().includes("/get-messages"));
    await page.reload();
    expect((await transcript).status()).toBe(200);
    await answer.getByText(ANSWER.join("")).waitFor();
    await context.close();
  });
});
