import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountButton, connectBrowser, newContext, registerUser, signInThroughUi } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

// The screen docs/tutorial.md builds: reached from the account menu, it writes, lists and deletes.
describe("notes", () => {
  it("writes a note, lists it newest first, and deletes it", async () => {
    const user = await registerUser();
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user);
    await accountButton(page).click();
    await page.getByRole("menuitem", { name: "Notes" }).click();
    await page.getByText("No notes yet.").waitFor();

    const form = page.getByRole("form", { name: "New note" });
    for (const text of ["Call the bank", "Water the plants"]) {
      await form.getByLabel("Note").fill(text);
      await form.getByRole("button", { name: "Add note" }).click();
      await page.getByRole("list", { name: "Notes" }).getByText(text).waitFor();
    }
    const notes = page.getByRole("list", { name: "Notes" }).locator("li p:first-child");
    expect(await notes.allTextContents()).toEqual(["Water the plants", "Call the bank"]);

    await page.getByRole("button", { name: "Delete note: Call the bank" }).click();
    await expect.poll(() => notes.allTextContents()).toEqual(["Water the plants"]);
    expect(offLoopback).toEqual([]);
    await context.close();
  });
});
