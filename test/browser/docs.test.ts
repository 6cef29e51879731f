import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiOrigin, connectBrowser, newContext, screenshot } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
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
      paths: Record<string, Record<string, { summary: string; tags: string[] }>>;
    };
    const operations = Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod));
    expect(operations.length).toBeGreaterThan(0);

    // The sidebar lists the operations by tag; Scalar opens the first group, the test opens the rest.
    const tags = [...new Set(operations.flatMap((operation) => operation.tags))];
    await page.getByRole("button", { name: `Close Group - ${tags[0]}`, exact: true }).waitFor();
    for (const tag of tags.slice(1)) {
      await page.getByRole("button", { name: `Open Group - ${tag}`, exact: true }).click();
    }
    for (const { summary } of operations) {
      expect(await page.getByText(summary, { exact: true }).first().isVisible(), summary).toBe(true);
    }
    await page.waitForLoadState("networkidle");
    await screenshot(page, "09-docs");

    // Buttons of Scalar's cloud lead nowhere offline: none is shown. The tab has the app's icon.
    for (const cloud of ["Ask AI", "Generate MCP", "Deploy", "Share", "Developer Tools"]) {
      expect(await page.getByRole("button", { name: cloud, exact: true }).count(), cloud).toBe(0);
    }
    const icon = await page.locator('link[rel="icon"]').getAttribute("href");
    const favicon = await fetch(new URL(icon!, apiOrigin));
    expect(favicon.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);

    expect(offLoopback).toEqual([]);
    expect(failed).toEqual([]);
    await context.close();
  });
});
