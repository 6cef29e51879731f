import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chatReady,
  connectBrowser,
  newContext,
  open,
  registerUser,
  screenshot,
  signInThroughUi,
} from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

/** Uploads a private text file over REST, as the files screen would. */
async function uploadPrivate(token: string, name: string, text: string) {
  const form = new FormData();
  form.append("visibility", "private");
  form.append("file", new Blob([text], { type: "text/markdown" }), name);
  const res = await fetch(`${open.apiOrigin}/api/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
}

async function newChat(page: Page) {
  await page
    .getByRole("navigation", { name: "Your chats" })
    .getByRole("button", { name: "New chat" })
    .click();
  await page.getByRole("heading", { name: "New chat" }).waitFor();
  await chatReady(page);
}

const pending = (page: Page) => page.getByRole("list", { name: "Files to send" });

describe("files in a chat message", () => {
  it("attaches one of your files and a new upload as chips; the model reads them; the transcript keeps them", async () => {
    const user = await registerUser();
    const secret = `plan-${crypto.randomUUID().slice(0, 8)}`;
    await uploadPrivate(user.token, "plan.md", `# Plan\n\nThe code word is ${secret}.`);
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user, "#/chat");
    await newChat(page);

    // From your files.
    await page.getByRole("button", { name: "Attach a file" }).click();
    const dialog = page.getByRole("dialog", { name: "Attach a file" });
    await dialog
      .getByRole("list", { name: "Your files" })
      .getByRole("button", { name: /plan\.md/ })
      .click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await pending(page).getByText("plan.md").waitFor();

    // And a new upload from this device.
    await page.getByRole("button", { name: "Attach a file" }).click();
    await dialog.getByLabel("Upload from this device").setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("Bring an umbrella."),
    });
    await pending(page).getByText("notes.txt").waitFor();
    await screenshot(page, "17-chat-files-pending");

    await page
      .getByLabel("Message", { exact: true })
      .fill("[script:title:Two files] [script:echo] What do these say?");
    await page.getByRole("button", { name: "Send" }).click();
    const answer = page.locator('[data-role="assistant"] .text').last();
    await answer.getByText(secret, { exact: false }).waitFor({ timeout: 10_000 });
    await answer.getByText("Bring an umbrella.", { exact: false }).waitFor();
    expect(await pending(page).count()).toBe(0);
    const sent = page.locator('[data-role="user"]').last();
    expect(await sent.locator(".file-chip").allTextContents()).toEqual(["plan.md", "notes.txt"]);
    await chatReady(page);
    await screenshot(page, "18-chat-files-answered");

    // The transcript keeps the references: after a reload the chips are still there.
    await page.reload();
    await page
      .getByRole("navigation", { name: "Your chats" })
      .getByRole("button", { name: /^Two files/ })
      .click();
    await page.locator('[data-role="user"] .file-chip').first().waitFor();
    expect(await page.locator('[data-role="user"] .file-chip').allTextContents()).toEqual([
      "plan.md",
      "notes.txt",
    ]);
    expect(offLoopback).toEqual([]);
    await context.close();
  });
});
