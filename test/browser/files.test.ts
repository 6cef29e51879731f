import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiOrigin,
  connectBrowser,
  downloadedBytes,
  dropFile,
  newContext,
  registerUser,
  screenshot,
  signInThroughUi,
  toastWith,
} from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

/** Uploads `text` over REST as `name`; the stored key. */
async function upload(token: string, text: string, name: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([text], { type: "text/plain" }), name);
  const res = await fetch(`${apiOrigin}/api/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { key: string } }).data.key;
}

/** Opens a file's menu and picks an item. */
async function fileAction(page: Page, file: string, item: string) {
  await page.getByRole("button", { name: `Actions for ${file}` }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

// CSS, not roles: while a dialog is open the page under it is hidden from the accessibility tree.
const names = (page: Page) => page.locator('ul[aria-label="Files"] .file-name').allTextContents();

describe("files", () => {
  it("lists your files with your usage, uploads one, and asks before deleting (naming the todo a file is attached to)", async () => {
    const user = await registerUser();
    const report = await upload(user.token, "quarterly numbers", "report.txt");
    const notes = await upload(user.token, "notes", "notes.txt");
    const todo = await fetch(`${apiOrigin}/api/todos`, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Send the report", attachments: [{ fileKey: report }] }),
    });
    const todoId = ((await todo.json()) as { data: { id: number } }).data.id;

    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user, "#/files");
    await expect.poll(() => names(page)).toEqual(["notes.txt", "report.txt"]);
    await page.getByText(/22 bytes of 1 GiB \(less than 0\.1%\) · 2 files/).waitFor();

    await page.getByLabel("Upload a file").setInputFiles({
      name: "photo.png",
      mimeType: "image/png",
      buffer: Buffer.from("not really a png"),
    });
    await expect.poll(() => names(page)).toEqual(["photo.png", "notes.txt", "report.txt"]);
    await page.getByText(/· 3 files/).waitFor();
    await screenshot(page, "10-my-files");

    // Cancel keeps it; Delete takes it away at once (with an Undo).
    await fileAction(page, "notes.txt", "Delete…");
    const confirm = page.getByRole("alertdialog", { name: "Delete “notes.txt”?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await names(page)).toContain("notes.txt");
    await fileAction(page, "notes.txt", "Delete…");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => names(page)).toEqual(["photo.png", "report.txt"]);
    const notesUrl = `${apiOrigin}/api/download/${encodeURIComponent(notes)}`;
    expect((await fetch(notesUrl)).status).toBe(404);
    // Undo restores it: the same key and bytes.
    await toastWith(page, "Deleted “notes.txt”").getByRole("button", { name: "Undo" }).click();
    await toastWith(page, "Restored “notes.txt”").waitFor();
    await expect.poll(() => names(page)).toEqual(["photo.png", "notes.txt", "report.txt"]);
    expect(await (await fetch(notesUrl)).text()).toBe("notes");
    // Deleted again, then the page reloaded: it stays gone.
    await fileAction(page, "notes.txt", "Delete…");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await toastWith(page, "Deleted “notes.txt”").waitFor();
    await page.reload();
    await expect.poll(() => names(page)).toEqual(["photo.png", "report.txt"]);
    expect((await fetch(notesUrl)).status).toBe(404);

    // Attached to a todo: the dialog names the todo by its title, and asks again.
    await fileAction(page, "report.txt", "Delete…");
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    const attached = page.getByRole("alertdialog", { name: "“report.txt” is attached to a todo" });
    await attached.getByText("“report.txt” is attached to “Send the report”.").waitFor();
    await screenshot(page, "11-my-files-attached");
    expect(await names(page)).toEqual(["photo.png", "report.txt"]);
    await attached.getByRole("button", { name: "Delete anyway" }).click();
    await expect.poll(() => names(page)).toEqual(["photo.png"]);
    await page.getByText(/· 1 file$/).waitFor();
    const detached = await fetch(`${apiOrigin}/api/todos/${todoId}`, {
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(((await detached.json()) as { data: { attachments: unknown[] } }).data.attachments).toEqual([]);

    expect(offLoopback).toEqual([]);
    await context.close();
  });

  it("uploads a file dropped on the upload area, and shows 51 bytes of 1 GiB as a sliver and in words", async () => {
    const user = await registerUser();
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user, "#/files");
    await page.getByText("No files yet.").waitFor();
    const meter = page.getByRole("meter", { name: "Storage used" });
    expect(await meter.getAttribute("aria-valuetext")).toBe("0 bytes of 1 GiB (0%)");
    expect((await page.getByTestId("storage-used").boundingBox())!.width).toBe(0);

    const zone = page.getByTestId("drop-zone");
    await dropFile(zone, { name: "dropped.txt", mimeType: "text/plain", text: "x".repeat(51) });
    await toastWith(page, "Uploaded “dropped.txt”").waitFor();
    await expect.poll(() => names(page), { timeout: 10_000 }).toEqual(["dropped.txt"]);
    await page.getByText("51 bytes of 1 GiB (less than 0.1%) · 1 file").waitFor();
    expect(await meter.getAttribute("aria-valuetext")).toBe("51 bytes of 1 GiB (less than 0.1%)");
    // The file input stays for keyboards and screen readers, the drop zone's hint beside it.
    expect(await page.getByLabel("Upload a file").getAttribute("type")).toBe("file");
    await page.getByText("Or drop a file here.").waitFor();

    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      const sliver = (await page.getByTestId("storage-used").boundingBox())!;
      const track = (await meter.boundingBox())!;
      expect(sliver.width, `${width} px`).toBeGreaterThanOrEqual(5);
      expect(sliver.width, `${width} px`).toBeLessThan(track.width / 10);
      await screenshot(page, `10-storage-sliver-${width}`);
    }
    expect(offLoopback).toEqual([]);
    await context.close();
  });

  it("uploads a private file, downloads it with the token, and shares it through links that expire, run out and are revoked", async () => {
    const user = await registerUser();
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user, "#/files");
    await page.getByText("No files yet.").waitFor();

    await page.getByLabel("Private").check();
    await page.getByLabel("Upload a file").setInputFiles({
      name: "diary.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("dear diary"),
    });
    const row = page.getByRole("list", { name: "Files" }).locator("li", { hasText: "diary.txt" });
    await row.getByText("Private").waitFor();
    // No plain link: the key alone downloads nothing.
    expect(await row.getByRole("link").count()).toBe(0);
    const key = (
      (await (
        await fetch(`${apiOrigin}/api/files`, { headers: { Authorization: `Bearer ${user.token}` } })
      ).json()) as {
        data: { items: { key: string }[] };
      }
    ).data.items[0]!.key;
    expect((await fetch(`${apiOrigin}/api/download/${encodeURIComponent(key)}`)).status).toBe(404);

    // Its owner downloads it from the menu (fetched with the token).
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      fileAction(page, "diary.txt", "Download"),
    ]);
    expect(download.suggestedFilename()).toBe("diary.txt");
    expect((await downloadedBytes(download)).toString()).toBe("dear diary");

    // A link for one download: it works once, then says it is used up.
    await fileAction(page, "diary.txt", "Share link…");
    const share = page.getByRole("dialog", { name: "Share “diary.txt”" });
    await share.getByLabel("Expires after").selectOption({ label: "1 hour" });
    await share.getByLabel("Download limit (optional)").fill("1");
    await share.getByRole("button", { name: "Create link" }).click();
    const url = await share.getByLabel("New link").inputValue();
    expect(url.startsWith(`${apiOrigin}/api/links/`)).toBe(true);
    await screenshot(page, "14-share-link");
    expect(await (await fetch(url)).text()).toBe("dear diary");
    expect((await fetch(url)).status).toBe(410);

    // A second link, revoked: it stops working; the list shows both states.
    await share.getByRole("button", { name: "Create link" }).click();
    await expect.poll(() => share.getByLabel("New link").inputValue()).not.toBe(url);
    const second = await share.getByLabel("New link").inputValue();
    await share.getByRole("button", { name: "Revoke" }).click();
    const links = share.getByRole("list", { name: "Share links" });
    await links.getByText("Revoked").waitFor();
    expect(await links.textContent()).toContain("Used up");
    expect((await fetch(second)).status).toBe(404);

    expect(offLoopback).toEqual([]);
    await context.close();
  });
});
