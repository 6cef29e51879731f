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
  await expect.poll(() => chatList(page).locator(".chat-row").count()).toBe(rows + 1);
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
    await expect.poll(() => rowTitles(page)).toEqual(["Trip plans"]);
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
});
