import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectBrowser,
  downloadedBytes,
  newContext,
  openTodo,
  registerUser,
  screenshot,
  signInThroughUi,
} from "./browser";

const MiB = 1024 * 1024;
const PART = /\/api\/uploads\/[0-9a-f-]{36}\/parts\/(\d+)$/;

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

describe("resumable upload in the React client", () => {
  it("sends a 12 MiB file in 3 parts, survives the network going away mid-upload, and stores exact bytes", async () => {
    const user = await registerUser();
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user);
    const cdp = await context.newCDPSession(page);
    const setOffline = (offline: boolean) =>
      cdp.send("Network.emulateNetworkConditions", {
        offline,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });

    // Every part request the page sends, by part number, and whether it got an answer.
    const attempts = new Map<number, number>();
    const stored = new Map<number, number>();
    page.on("request", (req) => {
      const part = PART.exec(req.url())?.[1];
      if (req.method() === "PUT" && part) attempts.set(Number(part), (attempts.get(Number(part)) ?? 0) + 1);
    });
    page.on("response", (res) => {
      const part = PART.exec(res.url())?.[1];
      if (res.request().method() === "PUT" && part && res.status() === 200) {
        stored.set(Number(part), (stored.get(Number(part)) ?? 0) + 1);
      }
    });
    // The connection drops as part 2 starts and comes back once the client says it is resuming.
    let cut = false;
    await page.route(PART, async (route) => {
      if (!cut && PART.exec(route.request().url())?.[1] === "2") {
        cut = true;
        await setOffline(true);
        return route.abort("internetdisconnected");
      }
      return route.continue();
    });

    const bytes = randomBytes(12 * MiB);
    // A file on disk, not a buffer: Playwright streams it to the browser instead of sending 16 MB of JSON.
    const file = join(mkdtempSync(join(tmpdir(), "resumable-")), "holiday.mp4");
    writeFileSync(file, bytes);
    const form = page.getByRole("form", { name: "New todo" });
    await form.getByLabel("Title").fill("Holiday video");
    await form.getByLabel("Attach a file").setInputFiles(file);
    const notice = form.getByRole("status").filter({ hasText: "Connection lost" });
    await notice.waitFor({ timeout: 10_000 });
    await screenshot(page, "12-upload-reconnecting");
    await setOffline(false);
    await form
      .getByRole("list", { name: "Files to attach" })
      .getByText("holiday.mp4 (12 MiB)")
      .waitFor({ timeout: 40_000 });
    expect(await notice.count()).toBe(0);

    // Part 2 was sent again after the drop; parts 1 and 3 once each, every part stored once.
    expect(cut).toBe(true);
    expect(attempts.get(1)).toBe(1);
    expect(attempts.get(2)).toBeGreaterThanOrEqual(2);
    expect(attempts.get(3)).toBe(1);
    expect(Object.fromEntries(stored)).toEqual({ 1: 1, 2: 1, 3: 1 });

    await form.getByRole("button", { name: "Add todo" }).click();
    const link = (await openTodo(page, "Holiday video"))
      .getByRole("list", { name: "Attachments" })
      .getByRole("link", { name: "holiday.mp4" });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("holiday.mp4");
    expect(Buffer.compare(await downloadedBytes(download), bytes)).toBe(0);
    rmSync(dirname(file), { recursive: true });
    expect(offLoopback).toEqual([]);
    await context.close();
  });
});
