import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER } from "../fakes/openai-compatible";
import {
  chatReady,
  clientUrl,
  connectBrowser,
  newContext,
  registerUser,
  screenshot,
  signInThroughUi,
} from "./browser";
import { checkState, type Finding } from "./screen-checks";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

const chatList = (page: Page) => page.getByRole("navigation", { name: "Your chats" });
const rowTitles = (page: Page) => chatList(page).locator(".chat-title").allTextContents();

/** Sends `text` in the open chat and waits for the scripted answer. */
async function ask(page: Page, text: string, answers: number) {
  await page.getByLabel("Message", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await expect
    .poll(() => page.locator('[data-role="assistant"] .text').getByText(ANSWER.join("")).count(), {
      timeout: 10_000,
    })
    .toBe(answers);
  await chatReady(page);
}

async function newChat(page: Page) {
  const rows = await chatList(page).locator(".chat-row").count();
  await chatList(page).getByRole("button", { name: "New chat" }).click();
  await expect.poll(() => chatList(page).locator(".chat-row").count(), { timeout: 10_000 }).toBe(rows + 1);
  await page.getByRole("heading", { name: "New chat" }).waitFor();
  await chatReady(page);
}

describe("chats: the list of a user's conversations", () => {
  it("starts chats, titles them after the first answer, switches, renames and deletes", async () => {
    const user = await registerUser();
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    const sockets: string[] = [];
    page.on("websocket", (ws) => sockets.push(ws.url()));
    await signInThroughUi(page, user, "#/chat");
    await chatList(page).getByText("No chats yet: start one.").waitFor();

    // A new chat is untitled until its first answer; then the model's title shows in the list and header.
    await newChat(page);
    expect(await rowTitles(page)).toEqual(["New chat"]);
    await ask(page, "[script:title:Lisbon weekend] Plan two days in Lisbon.", 1);
    await expect.poll(() => rowTitles(page)).toEqual(["Lisbon weekend"]);
    await page.getByRole("heading", { name: "Lisbon weekend" }).waitFor();
    await expect
      .poll(() => chatList(page).locator(".chat-preview").first().textContent())
      .toBe(ANSWER.join(""));
    // A chat of the index is private even with public agents: its socket carries a ticket.
    const chatSockets = sockets.filter((url) => url.includes("/agents/chat-agent/chat_"));
    expect(chatSockets.length).toBeGreaterThan(0);
    for (const url of chatSockets) expect(url).toMatch(/[?&]ticket=/);

    // A second chat goes on top; switching back shows the first one's transcript.
    await newChat(page);
    await ask(page, "[script:title:Groceries] What do I need for pancakes?", 1);
    await expect.poll(() => rowTitles(page)).toEqual(["Groceries", "Lisbon weekend"]);
    await chatList(page)
      .getByRole("button", { name: /^Lisbon weekend/ })
      .click();
    await page.getByRole("heading", { name: "Lisbon weekend" }).waitFor();
    await page.getByText("Plan two days in Lisbon.").waitFor();
    expect(await page.getByText("What do I need for pancakes?").count()).toBe(0);
    await screenshot(page, "14-chats-list");

    // Rename wins over the model's title; delete asks first, then the chat is gone.
    await chatList(page).getByRole("button", { name: "Actions for Lisbon weekend" }).click();
    await page.getByRole("menuitem", { name: "Rename…" }).click();
    await chatList(page).getByLabel("Chat title").fill("Trip plans");
    await chatList(page).getByRole("button", { name: "Save" }).click();
    await expect.poll(() => rowTitles(page)).toEqual(["Groceries", "Trip plans"]);
    await chatList(page).getByRole("button", { name: "Actions for Groceries" }).click();
    await page.getByRole("menuitem", { name: "Delete…" }).click();
    await page
      .getByRole("alertdialog", { name: "Delete “Groceries”?" })
      .getByRole("button", { name: "Delete chat" })
      .click();
    await expect.poll(() => rowTitles(page)).toEqual(["Trip plans"]);
    await page.reload();
    await expect.poll(() => rowTitles(page), { timeout: 10_000 }).toEqual(["Trip plans"]);
    await screenshot(page, "15-chats-renamed");

    // What the two chats cost, on the account's AI usage screen: an answer and a title each (the scripted
    // server reports 12 tokens in, 7 and 3 out); the deleted chat's usage stays.
    await page.goto(`${clientUrl}/#/account/usage`);
    const totals = page.getByLabel("Totals");
    await totals.waitFor();
    expect(await totals.locator("dd").allTextContents()).toEqual(["4", "48", "20"]);
    const byChat = page.getByRole("list", { name: "By chat" });
    // Equal spends list in chat id order, and ids are random: compare as a set.
    expect((await byChat.getByRole("listitem").allTextContents()).toSorted()).toEqual([
      "Deleted chat10 tokens out · 2 calls",
      "Trip plans10 tokens out · 2 calls",
    ]);
    await page.getByText("20 tokens of 200,000 tokens").waitFor();
    await screenshot(page, "16-ai-usage");
    expect(offLoopback).toEqual([]);
    await context.close();
  });

  it("on a phone the conversation comes first and the list is a drawer; a failed turn leaves no title; previews are plain text", async () => {
    const user = await registerUser();
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 800 });
    await signInThroughUi(page, user, "#/chat");
    await chatReady(page);
    // The conversation and its message box are on screen; the list waits behind "Chats".
    expect(await chatList(page).count()).toBe(0);
    expect(await page.getByLabel("Message", { exact: true }).isVisible()).toBe(true);
    const opener = page.getByRole("button", { name: /^Chats/ });
    const drawer = page.getByRole("dialog", { name: "Your chats" });
    await opener.click();
    await drawer.getByRole("button", { name: "New chat" }).click();
    await drawer.waitFor({ state: "detached" });
    await page.getByRole("heading", { name: "New chat" }).waitFor();
    await chatReady(page);

    // A turn that fails (no model) names nothing; the first answered one titles the chat.
    await page.getByLabel("Message", { exact: true }).fill("[script:no-model] Plan two days in Porto.");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("alert").waitFor();
    await page.getByRole("button", { name: "Dismiss" }).click();
    await chatReady(page);
    await ask(page, "[script:title:Porto weekend] Plan two days in Porto.", 1);
    await page.getByRole("heading", { name: "Porto weekend" }).waitFor();
    await page.getByLabel("Message", { exact: true }).fill("[script:markdown] Plan my day.");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator('[data-role="assistant"] pre').getByText("npm run dev").waitFor();
    await chatReady(page);
    await expect.poll(() => opener.textContent()).toBe("Chats (1)");

    await opener.click();
    await expect.poll(() => rowTitles(page)).toEqual(["Porto weekend"]);
    await expect
      .poll(() => chatList(page).locator(".chat-preview").first().textContent())
      .toMatch(/^Here is the plan: 1\. Water the plants 2\. Send the report/);
    const preview = await chatList(page).locator(".chat-preview").first().textContent();
    expect(preview).not.toMatch(/[*`#<]/);
    const findings: Finding[] = [];
    await checkState(page, "chat list drawer", findings, { scope: '[role="dialog"]' });
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, "17-chats-drawer-390");
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    await checkState(page, "chat on a phone", findings);
    expect(findings).toEqual([]);

    // From `lg` up the list sits beside the conversation, and "Chats" is gone.
    await page.setViewportSize({ width: 1280, height: 800 });
    await chatList(page).waitFor();
    expect(await opener.isVisible()).toBe(false);
    expect(await rowTitles(page)).toEqual(["Porto weekend"]);
    await screenshot(page, "17-chats-list-1280");
    await context.close();
  });
});
