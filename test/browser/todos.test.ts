import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiOrigin,
  connectBrowser,
  downloadedBytes,
  dropFile,
  listTitles,
  newContext,
  openTodo,
  registerUser,
  toastWith,
  screenshot,
  signInThroughUi,
} from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

describe("todos", () => {
  it("creates a todo with an uploaded attachment and downloads the same bytes back", async () => {
    const user = await registerUser();
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user);

    const bytes = randomBytes(256 * 1024);
    const form = page.getByRole("form", { name: "New todo" });
    await form.getByLabel("Title").fill("Send the quarterly report");
    await form.getByLabel("Description").fill("Attach the measurements from the lab.");

    // Upload at 256 KiB/s so the progress bar has time to show a value between empty and full.
    const cdp = await context.newCDPSession(page);
    const throttle = (uploadThroughput: number) =>
      cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput,
      });
    await throttle(256 * 1024);
    await form.getByLabel("Attach a file").setInputFiles({
      name: "measurements.bin",
      mimeType: "application/octet-stream",
      buffer: bytes,
    });
    const progress = form.getByRole("progressbar", { name: "Upload progress" });
    const value = async () =>
      Number((await progress.getAttribute("value", { timeout: 100 }).catch(() => null)) ?? 0);
    await expect.poll(value, { interval: 20 }).toBeGreaterThan(0);
    expect(await value()).toBeLessThan(1);
    await screenshot(page, "03-upload-progress");
    await form
      .getByRole("list", { name: "Files to attach" })
      .getByText("measurements.bin (256 KiB)")
      .waitFor();
    expect(await progress.count()).toBe(0);
    await throttle(-1);
    await form.getByRole("button", { name: "Add todo" }).click();

    // The list says what the row holds (a description, a file); one page has no pager.
    const row = page.locator(".todo-list li", { hasText: "Send the quarterly report" });
    await row.getByText("1 file").waitFor();
    expect(await row.textContent()).toContain("Attach the measurements from the lab.");
    expect(await page.getByText("1 todo", { exact: true }).count()).toBe(1);
    expect(await page.getByRole("navigation", { name: "Pages" }).count()).toBe(0);
    // Nothing opens by itself after adding.
    expect(await page.getByRole("dialog").count()).toBe(0);

    const detail = await openTodo(page, "Send the quarterly report");
    const link = detail
      .getByRole("list", { name: "Attachments" })
      .getByRole("link", { name: "measurements.bin" });
    await link.waitFor();
    expect(await listTitles(page)).toEqual(["Send the quarterly report"]);
    await screenshot(page, "04-todo-with-attachment");

    // The link points at the public download route with the key as one encoded path segment.
    expect(await link.getAttribute("href")).toMatch(
      new RegExp(`^${apiOrigin}/api/download/[^/]+-measurements\\.bin$`),
    );
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("measurements.bin");
    expect(Buffer.compare(await downloadedBytes(download), bytes)).toBe(0);

    expect(offLoopback).toEqual([]);
    await context.close();
  });

  it("attaches a file dropped on an open todo", async () => {
    const user = await registerUser();
    await fetch(`${apiOrigin}/api/todos`, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "File the receipts" }),
    });
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user);
    const detail = await openTodo(page, "File the receipts");
    await dropFile(detail.getByTestId("drop-zone"), {
      name: "receipt.txt",
      mimeType: "text/plain",
      text: "coffee 3.20",
    });
    await detail
      .getByRole("list", { name: "Attachments" })
      .getByRole("link", { name: "receipt.txt" })
      .waitFor();
    const row = page.locator(".todo-list li", { hasText: "File the receipts" });
    await row.getByText("1 file").waitFor();
    expect(offLoopback).toEqual([]);
    await context.close();
  });

  it("edits, completes and deletes a todo (with Undo), in plain words", async () => {
    const user = await registerUser();
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user);

    // A blank title passes the browser's `required` but not the service: plain words, its message in Details.
    const form = page.getByRole("form", { name: "New todo" });
    await form.getByLabel("Title").fill("   ");
    await form.getByRole("button", { name: "Add todo" }).click();
    const alert = form.getByRole("alert");
    await alert.waitFor();
    expect(await alert.locator("p").first().textContent()).toBe("Enter a title.");
    expect(await alert.locator("details").textContent()).toMatch(
      /HTTP 400: Invalid .*title: Must not be blank$/,
    );

    await form.getByLabel("Title").fill("Water the plants");
    await form.getByRole("button", { name: "Add todo" }).click();
    await toastWith(page, "Added “Water the plants”").waitFor();
    expect(await alert.count()).toBe(0);
    const detail = await openTodo(page, "Water the plants");
    const edit = detail.getByRole("form", { name: "Edit todo" });

    await edit.getByLabel("Title").fill("Water the plants twice");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.getByRole("status").getByText("Saved").waitFor();
    await expect.poll(() => listTitles(page)).toEqual(["Water the plants twice"]);

    await edit.getByRole("checkbox").click();
    await expect.poll(() => edit.textContent()).toMatch(/Done \(.+\)/);
    await page.keyboard.press("Escape");
    const rowCheckbox = page.getByRole("checkbox", { name: "Done: Water the plants twice" });
    await expect.poll(() => rowCheckbox.isChecked()).toBe(true);

    // The list's box changes at once, before the service answers; a refusal puts it back.
    await page.route("**/api/todos/*", (route) =>
      route.request().method() === "POST"
        ? new Promise((resolve) => setTimeout(resolve, 300)).then(() => route.continue())
        : route.continue(),
    );
    const answered = page.waitForResponse(
      (res) => res.request().method() === "POST" && res.url().includes("/api/todos/"),
    );
    await rowCheckbox.click();
    expect(await rowCheckbox.isChecked()).toBe(false);
    await answered;
    await page.unrouteAll({ behavior: "wait" });
    await page.route("**/api/todos/*", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 503,
            contentType: "application/json",
            body: '{"success":false,"error":{"message":"D1 is not answering"}}',
          })
        : route.continue(),
    );
    await rowCheckbox.click();
    await toastWith(page, "“Water the plants twice” was not changed").waitFor();
    await expect.poll(() => rowCheckbox.isChecked()).toBe(false);
    await page.unrouteAll();

    // A file attached over REST, so the Undo below has an attachment to bring back.
    const authorized = { Authorization: `Bearer ${user.token}` };
    const upload = new FormData();
    upload.append("file", new Blob(["how much water"], { type: "text/plain" }), "watering.txt");
    const fileKey = (
      await fetch(`${apiOrigin}/api/upload`, { method: "POST", headers: authorized, body: upload }).then(
        (r) => r.json(),
      )
    ).data.key as string;
    const { id } = (await fetch(`${apiOrigin}/api/todos`, { headers: authorized }).then((r) => r.json())).data
      .items[0];
    const attach = await fetch(`${apiOrigin}/api/todos/${id}`, {
      method: "POST",
      headers: { ...authorized, "Content-Type": "application/json" },
      body: JSON.stringify({ attachments: [{ fileKey }] }),
    });
    expect(attach.status).toBe(200);
    const serverSees = () =>
      fetch(`${apiOrigin}/api/todos/${id}`, { headers: authorized }).then((r) => r.status);

    // Delete is sent at once: the service (every tab, the chat, MCP) has it gone while the Undo toast shows.
    const toastOf = () => toastWith(page, "Deleted “Water the plants twice”");
    await (
      await openTodo(page, "Water the plants twice")
    )
      .getByRole("button", { name: "Delete todo" })
      .click();
    await page.getByText("Nothing here yet.").waitFor();
    await toastOf().waitFor();
    expect(await serverSees()).toBe(404);
    // Undo restores the same todo, with its attachment.
    await toastOf().getByRole("button", { name: "Undo" }).click();
    await toastWith(page, "Restored “Water the plants twice”").waitFor();
    await expect.poll(() => listTitles(page)).toEqual(["Water the plants twice"]);
    expect(await serverSees()).toBe(200);
    const restored = await openTodo(page, "Water the plants twice");
    await restored
      .getByRole("list", { name: "Attachments" })
      .getByRole("link", { name: "watering.txt" })
      .waitFor();

    // Deleted again and the page reloaded at once: it stays gone.
    await restored.getByRole("button", { name: "Delete todo" }).click();
    await toastOf().waitFor();
    await page.reload();
    await page.getByText("Nothing here yet.").waitFor();
    expect(await serverSees()).toBe(404);
    expect(await listTitles(page)).toEqual([]);
    await context.close();
  });

  it("pages through 30 todos, 10 at a time", async () => {
    const user = await registerUser();
    const titles = Array.from({ length: 30 }, (_, i) => `Todo ${String(i + 1).padStart(2, "0")}`);
    const created = await Promise.all(
      titles.map((title) =>
        fetch(`${apiOrigin}/api/todos`, {
          method: "POST",
          headers: { Authorization: `Bearer ${user.token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ title }),
        }),
      ),
    );
    expect(created.map((res) => res.status)).toEqual(titles.map(() => 201));
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user);

    const pager = page.getByRole("navigation", { name: "Pages" });
    await page.getByText("30 todos", { exact: true }).waitFor();
    const seen: string[] = [];
    for (const n of [1, 2, 3]) {
      await pager.getByText(`Page ${n} of 3`).waitFor();
      const onPage = await listTitles(page);
      expect(onPage).toHaveLength(10);
      seen.push(...onPage);
      if (n === 2) await screenshot(page, "05-todos-page-2");
      if (n < 3) await pager.getByRole("button", { name: "Next" }).click();
    }
    expect(await pager.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
    expect(seen.toSorted()).toEqual(titles);

    await pager.getByRole("button", { name: "Previous" }).click();
    await pager.getByText("Page 2 of 3").waitFor();
    await context.close();
  });
});
