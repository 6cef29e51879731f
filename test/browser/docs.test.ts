import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiOrigin, launchBrowser, newContext, screenshot } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("/docs", () => {
  it("renders the operations list from the Worker's own assets, with no request beyond loopback", async () => {
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    const failed: string[] = [];
    page.on("requestfailed", (request) => failed.push(request.url()));

    await page.goto(`${apiOrigin}/docs`);
    const doc = (await (await fetch(`${apiOrigin}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    const summaries = Object.values(doc.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => (operation.summary ? [operation.summary] : [])),
    );
    expect(summaries.length).toBeGreaterThan(0);
    // Every documented operation shows up by its summary once Scalar has rendered the document.
    for (const summary of summaries) {
      await page.getByText(summary, { exact: true }).first().waitFor({ state: "attached" });
    }
    await page.waitForLoadState("networkidle");
    await screenshot(page, "08-docs");

    expect(offLoopback).toEqual([]);
    expect(failed).toEqual([]);
    await context.close();
  });
});
