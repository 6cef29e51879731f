import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBrowser, newContext, registerUser, signInThroughUi, toastWith } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

describe("toasts", () => {
  it("on a phone, a toast never covers a bottom sheet: it moves to the top, and Dismiss leaves the sheet open", async () => {
    const user = await registerUser();
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 800 });
    await signInThroughUi(page, user);
    const form = page.getByRole("form", { name: "New todo" });
    await form.getByLabel("Title").fill("Water the plants");
    await form.getByRole("button", { name: "Add todo" }).click();
    await toastWith(page, "Added “Water the plants”").waitFor();
    // Radix pauses a toast's timer while the window is not focused: this one stays while the test looks.
    await page.evaluate(() => window.dispatchEvent(new Event("blur")));
    // By class: while a modal dialog is open Radix hides the rest of the page, toasts included, from the
    // accessibility tree.
    const toast = page.locator(".toast-viewport li", { hasText: "Added “Water the plants”" });
    // The paused toast sits over the list's end: the title is clicked through a dispatched event.
    await page.locator(".todo-list .title", { hasText: "Water the plants" }).dispatchEvent("click");
    const sheet = page.getByRole("dialog", { name: "Water the plants" });
    await sheet.waitFor();

    // The sheet rises from the bottom; the toast sits above it, not over its buttons.
    const [toastBox, sheetBox] = [await toast.boundingBox(), await sheet.boundingBox()];
    expect(toastBox!.y + toastBox!.height).toBeLessThanOrEqual(sheetBox!.y);
    await toast.locator('button[aria-label="Dismiss"]').click();
    await toast.waitFor({ state: "detached" });
    expect(await sheet.isVisible()).toBe(true);
    await context.close();
  });
});
