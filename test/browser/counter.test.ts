import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, newContext, registerUser, screenshot, signInThroughUi } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

async function openCounter(page: Page, name: string) {
  await page.getByLabel("Counter name").fill(name);
  await page.getByRole("button", { name: "Open" }).click();
  await page.getByText(`Connected to “${name}”`).waitFor();
}

const increment = (page: Page) => page.getByRole("button", { name: "+ Increment" });
const decrement = (page: Page) => page.getByRole("button", { name: "− Decrement" });
const count = (page: Page) => page.getByRole("status", { name: "Count" }).textContent();

describe("live counter", () => {
  it("keeps two tabs equal as each one increments and decrements", async () => {
    const user = await registerUser();
    const { context, offLoopback } = await newContext(browser);
    const [first, second] = [await context.newPage(), await context.newPage()];
    const name = `browser-${randomUUID().slice(0, 8)}`;
    for (const page of [first, second]) {
      await page.bringToFront();
      await signInThroughUi(page, user, "#/counter");
      await openCounter(page, name);
    }
    await expect.poll(() => count(first)).toBe("0");
    await expect.poll(() => count(second)).toBe("0");

    for (const [page, button, expected] of [
      [first, increment, "1"],
      [first, increment, "2"],
      [second, increment, "3"],
      [second, decrement, "2"],
      [first, increment, "3"],
    ] as const) {
      // Switch tabs like a person would: a background tab gets no animation frames to click in.
      await page.bringToFront();
      await button(page).click();
      await expect.poll(() => count(first)).toBe(expected);
      await expect.poll(() => count(second)).toBe(expected);
    }
    await screenshot(first, "06-counter-tab-1");
    await screenshot(second, "06-counter-tab-2");
    expect(offLoopback).toEqual([]);
    await context.close();
  });
});
