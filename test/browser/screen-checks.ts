import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";
import { screenshot } from "./browser";

// axe-core, the accessibility engine browsers' own audits use, run inside the page.
const AXE = readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");

/**
 * Phones to wide desktops: no width in between may scroll sideways. Within one of Tailwind's breakpoint
 * ranges the narrowest width is the tightest, so each range's first width is here (360, sm 640, lg 1024).
 */
export const WIDTHS = [360, 390, 640, 1024, 1280, 1440];
/** axe runs (and screenshots are taken) at a phone's width and a laptop's. */
export const AXE_WIDTHS = new Set([390, 1280]);

export interface Finding {
  state: string;
  width: number;
  problem: string;
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

type Axe = { run: (context: Element | Document, options: object) => Promise<AxeResult> };

/** Serious and critical axe violations in `scope` (the whole page by default): each rule with its nodes. */
export async function seriousAxeViolations(
  page: Page,
  scope?: string,
): Promise<{ id: string; help: string; targets: string[] }[]> {
  // Injected through the debugger protocol, so a page's CSP (the consent page allows no script) does not apply.
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(AXE);
  const result = await page.evaluate(
    (selector) =>
      (globalThis as unknown as { axe: Axe }).axe.run(
        selector ? document.querySelector(selector)! : document,
        {
          resultTypes: ["violations"],
        },
      ),
    scope,
  );
  return result.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target.join(" ")) }));
}

/** The same, one line each. */
async function axeViolations(page: Page, scope?: string): Promise<string[]> {
  return (await seriousAxeViolations(page, scope)).map(
    ({ id, help, targets }) => `${id} (${help}): ${targets.join(", ")}`,
  );
}

/** How far the page scrolls sideways, in CSS pixels (0: it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Checks the page as it is at every width: no sideways scroll anywhere, no serious or critical axe
 * violation at 390 and 1280 px (with a screenshot there when `shot` names one and SCREENSHOTS_DIR is
 * set). For something open
 * over a screen already checked, `scope` (a selector) limits axe to it. Problems are collected, not
 * thrown, so one run lists them all.
 */
export async function checkState(
  page: Page,
  state: string,
  findings: Finding[],
  { shot, scope }: { shot?: string; scope?: string } = {},
) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    const wider = await overflow(page);
    if (wider > 0) findings.push({ state, width, problem: `scrolls sideways by ${wider} px` });
    if (!AXE_WIDTHS.has(width)) continue;
    for (const problem of await axeViolations(page, scope)) findings.push({ state, width, problem });
    // Pictures of every state cost seconds: taken when the committed set is refreshed.
    if (shot && process.env.SCREENSHOTS_DIR) await screenshot(page, `${shot}-${width}`);
  }
}

/**
 * Resolves once no request of the page has been in flight for 100 ms, so a check sees a screen with
 * its data rather than half loaded. WebSockets stay open and do not count.
 */
export function networkSettler(page: Page) {
  let inFlight = 0;
  let lastChange = Date.now();
  const change = (delta: number) => {
    inFlight += delta;
    lastChange = Date.now();
  };
  page.on("request", () => change(1));
  page.on("requestfinished", () => change(-1));
  page.on("requestfailed", () => change(-1));
  const busy = () => inFlight > 0 || Date.now() - lastChange < 100;
  return async () => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && busy()) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
}
