import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Download,
  type Locator,
  type Page,
} from "playwright-core";
import { expect, inject } from "vitest";
import type { components } from "../../examples/react-client/src/api/schema";
import { ROOT } from "../../scripts/lib/wrangler-dev.mjs";

export type LoginResult = components["schemas"]["LoginResult"];

export type Stack = ReturnType<typeof inject<"open">>;
// Most tests use the service as it ships; agents-auth.test.ts uses the `gated` one.
export const open = inject("open");
export const gated = inject("gated");
export const { apiOrigin, clientUrl } = open;

/** The suite's headless Chromium, started once by global-setup.ts: each test file connects to it. */
export function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject("browserEndpoint"));
}

/** The bytes of a finished download (read through the connection: the file is on the browser's side). */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * A fresh context (own storage, own profile state) that refuses and records every request
 * leaving loopback, so a test can assert the page needed nothing from the internet.
 */
export async function newContext(
  browser: Browser,
): Promise<{ context: BrowserContext; offLoopback: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, acceptDownloads: true });
  const offLoopback: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === "data:" || url.protocol === "blob:" || LOOPBACK.has(url.hostname))
      return route.continue();
    offLoopback.push(url.href);
    return route.abort("blockedbyclient");
  });
  return { context, offLoopback };
}

// Each run writes to the git-ignored test-results/; the committed set in
// examples/react-client/screenshots/ is refreshed with SCREENSHOTS_DIR=examples/react-client/screenshots.
const SCREENSHOTS = resolve(ROOT, process.env.SCREENSHOTS_DIR ?? "test-results/screenshots");
mkdirSync(SCREENSHOTS, { recursive: true });

/** The titles in the todo list, top to bottom. */
export const listTitles = (page: Page) => page.locator(".todo-list .title").allTextContents();

/** The button of the account menu (its name starts "Account:", then the username). */
export const accountButton = (page: Page) => page.getByRole("button", { name: /^Account:/ });

/** Signs out as a person does: the account menu, then Sign out. */
export async function signOutThroughUi(page: Page) {
  await accountButton(page).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.getByRole("form", { name: "Sign in" }).waitFor();
}

/** Waits until the chat reports the status `ready` (shown as "Ready"). */
export const chatReady = (page: Page) =>
  page.locator('[aria-label="Chat status"][data-status="ready"]').waitFor();

/** A toast (Radix renders them as list items in the Notifications region). */
export const toastWith = (page: Page, text: string) =>
  page.getByRole("region", { name: /^Notifications/ }).locator("li", { hasText: text });

/** A todo's dialog, opened from its title in the list. */
export async function openTodo(page: Page, title: string) {
  await page.locator(".todo-list .title", { hasText: title }).click();
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.getByRole("form", { name: "Edit todo" }).waitFor();
  return dialog;
}

/**
 * Drags a file from outside the page and drops it on `target`, as a file manager does: dragenter, dragover
 * and drop, carrying one DataTransfer with the file.
 */
export async function dropFile(target: Locator, file: { name: string; mimeType: string; text: string }) {
  const dataTransfer = await target.page().evaluateHandle(({ name, mimeType, text }) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], name, { type: mimeType }));
    return transfer;
  }, file);
  for (const type of ["dragenter", "dragover", "drop"]) await target.dispatchEvent(type, { dataTransfer });
}

/** A PNG of one step, for people to look at. */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

export function newCredentials() {
  const id = randomUUID().slice(0, 8);
  return {
    username: `user_${id}`,
    password: `pw-${randomUUID()}`,
    name: `Test ${id}`,
    email: `${id}@example.com`,
  };
}

/** Registers over REST (for tests whose subject is not registration). */
export async function registerUser(stack: Stack = open) {
  const credentials = newCredentials();
  const res = await fetch(`${stack.apiOrigin}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(credentials),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { data: LoginResult };
  return { ...credentials, ...body.data };
}

/** Opens the client and signs in through its form. */
export async function signInThroughUi(
  page: Page,
  user: { username: string; password: string },
  hash = "#/todos",
  stack: Stack = open,
) {
  await page.goto(`${stack.clientUrl}/${hash}`);
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Username", { exact: true }).fill(user.username);
  await form.getByLabel("Password", { exact: true }).fill(user.password);
  await form.getByRole("button", { name: "Sign in" }).click();
  await accountButton(page).waitFor();
}
