import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER, REASONING } from "../fakes/openai-compatible";
import { launchBrowser, newContext, registerUser, screenshot, signInThroughUi } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

// The scripted model's "[script:slow]" answer: reasoning "step 0. … step 4. ", then "w5 " … "w39 ", 25 ms apart.
const SLOW_REASONING = Array.from({ length: 5 }, (_, i) => `step ${i}. `).join("");
const SLOW_ANSWER = Array.from({ length: 35 }, (_, i) => `w${i + 5} `).join("");

type Sampled = typeof globalThis & { answerSamples?: string[] };

/** Records every text the last assistant message shows, as the DOM changes. */
function sampleAnswerText(page: Page) {
  return page.evaluate(() => {
    const samples: string[] = [];
    (globalThis as Sampled).answerSamples = samples;
    new MutationObserver(() => {
      const last = [...document.querySelectorAll('[data-role="assistant"]')].at(-1);
      const text = last?.querySelector("p.text")?.textContent;
      if (text && samples.at(-1) !== text) samples.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const answerSamples = (page: Page) => page.evaluate(() => (globalThis as Sampled).answerSamples ?? []);

async function openChat(page: Page) {
  const user = await registerUser();
  await signInThroughUi(page, user, "#/chat");
  await page.getByLabel("Conversation name").fill(`browser-${randomUUID().slice(0, 8)}`);
  await page.getByRole("button", { name: "Open" }).click();
  await page.getByText("Status: ready").waitFor();
}

describe("chat", () => {
  it("streams an answer: text grows in place, reasoning folds away, send waits for ready", async () => {
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await openChat(page);
    const send = page.getByRole("button", { name: "Send" });
    const stop = page.getByRole("button", { name: "Stop" });
    expect(await stop.isDisabled()).toBe(true);

    await page.getByLabel("Message", { exact: true }).fill("[script:slow] Count from five, please.");
    await expect.poll(() => send.isEnabled()).toBe(true);
    await sampleAnswerText(page);
    await send.click();

    // While the answer streams, Send is off and Stop is on.
    await expect.poll(async () => (await answerSamples(page)).length, { timeout: 10_000 }).toBeGreaterThan(0);
    await screenshot(page, "07-chat-streaming");
    expect(await send.isDisabled()).toBe(true);
    expect(await stop.isEnabled()).toBe(true);

    await page.getByText("Status: ready").waitFor();
    const assistant = page.locator('[data-role="assistant"]').last();
    expect(await assistant.locator("p.text").textContent()).toBe(SLOW_ANSWER);
    const samples = await answerSamples(page);
    expect(samples.at(-1)).toBe(SLOW_ANSWER);
    // Intermediate renders: non-empty, strictly shorter prefixes of the final answer.
    const partial = samples.slice(0, -1);
    expect(partial.length).toBeGreaterThan(0);
    for (const text of partial) {
      expect(text.length).toBeLessThan(SLOW_ANSWER.length);
      expect(SLOW_ANSWER.startsWith(text)).toBe(true);
    }

    // Reasoning is rendered, folded by default.
    const reasoning = assistant.locator("details.reasoning");
    expect(await reasoning.getAttribute("open")).toBeNull();
    expect(await reasoning.locator("summary").textContent()).toBe("Reasoning");
    expect(await reasoning.locator("p").textContent()).toBe(SLOW_REASONING);

    // A second turn in the same conversation; its screenshot shows a finished answer.
    await page.getByLabel("Message", { exact: true }).fill("Say hello.");
    await send.click();
    await page
      .locator('[data-role="assistant"]')
      .nth(1)
      .locator("p.text")
      .getByText(ANSWER.join(""))
      .waitFor();
    await page.getByText("Status: ready").waitFor();
    expect(
      await page.locator('[data-role="assistant"]').nth(1).locator("details.reasoning p").textContent(),
    ).toBe(REASONING.join(""));
    await screenshot(page, "08-chat-answer");
    expect(offLoopback).toEqual([]);
    await context.close();
  });

  it("stops a streaming answer, keeping what arrived, and is ready again", async () => {
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await page.getByLabel("Message", { exact: true }).fill("[script:slow] Count, but I will stop you.");
    await sampleAnswerText(page);
    await page.getByRole("button", { name: "Send" }).click();
    await expect.poll(async () => (await answerSamples(page)).length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Stop" }).click();

    await page.getByText("Status: ready").waitFor();
    const kept = await page.locator('[data-role="assistant"]').last().locator("p.text").textContent();
    expect(kept!.length).toBeGreaterThan(0);
    expect(kept!.length).toBeLessThan(SLOW_ANSWER.length);
    expect(SLOW_ANSWER.startsWith(kept!)).toBe(true);
    await context.close();
  });
});
