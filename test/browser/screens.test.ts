import { createHash, randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountButton,
  apiOrigin,
  chatReady,
  clientUrl,
  connectBrowser,
  newContext,
  openTodo,
  registerUser,
  signInThroughUi,
} from "./browser";
import { checkState, networkSettler, type Finding } from "./screen-checks";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

/** A user with something on every screen: a todo with a file and a description, a share link, an API key. */
async function userWithData() {
  const user = await registerUser();
  const auth = { Authorization: `Bearer ${user.token}` };
  const json = { ...auth, "Content-Type": "application/json" };
  const form = new FormData();
  form.append("file", new Blob(["numbers"], { type: "text/plain" }), "quarterly-report-with-a-long-name.txt");
  const file = (await (
    await fetch(`${apiOrigin}/api/upload`, { method: "POST", headers: auth, body: form })
  ).json()) as {
    data: { key: string };
  };
  const post = (path: string, body: unknown) =>
    fetch(`${apiOrigin}${path}`, { method: "POST", headers: json, body: JSON.stringify(body) });
  await post("/api/todos", {
    title: "Send the quarterly report to everyone in the department before Friday",
    description: "The numbers from the lab, with the charts",
    attachments: [{ fileKey: file.data.key }],
  });
  await post("/api/todos", { title: "Water the plants" });
  await post(`/api/files/${encodeURIComponent(file.data.key)}/links`, { expiresIn: 3600, maxDownloads: 3 });
  await post("/api/keys", { name: "Nightly backup script", scopes: ["todos:read", "files:read"] });
  return user;
}

/** The consent page an AI client opens (a page of the service, in the app's style). */
async function consentUrl(): Promise<string> {
  const callback = "http://127.0.0.1:43115/callback";
  const res = await fetch(`${apiOrigin}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "Screen check assistant",
      redirect_uris: [callback],
      token_endpoint_auth_method: "none",
    }),
  });
  const { client_id } = (await res.json()) as { client_id: string };
  const url = new URL(`${apiOrigin}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: callback,
    scope: "todos:read todos:write",
    state: "s",
    code_challenge: createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  return url.href;
}

// What opens over a screen that was checked already: axe looks at it alone.
const DIALOG = "[role=dialog]";
const ALERT = "[role=alertdialog]";
const TOASTS = "[role=region][aria-label^=Notifications]";

/** Opens a screen by its link, as the navigation does, and waits for its data. */
async function visit(page: Page, href: string, settle: () => Promise<void>) {
  await page.evaluate((hash) => (window.location.hash = hash), href);
  await page.locator("main h1").waitFor();
  await page.getByText("Loading…").waitFor({ state: "detached" });
  await settle();
}

describe("every screen, 360 to 1440 px wide", () => {
  // One walk of every screen at six widths, axe at two: more than the suite's 60 s on a busy machine.
  it("has one h1 and its own title, never scrolls sideways, and axe finds nothing serious at 390 and 1280 px", async () => {
    const user = await userWithData();
    const { context } = await newContext(browser);
    const page = await context.newPage();
    const settle = networkSettler(page);
    const findings: Finding[] = [];

    // Signed out.
    await page.goto(clientUrl);
    await checkState(page, "sign in", findings, { shot: "screen-sign-in" });
    await page.getByRole("button", { name: "No account yet? Register" }).click();
    await checkState(page, "register", findings);
    await page.getByRole("button", { name: "I have an account: sign in" }).click();
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await checkState(page, "forgot password", findings);
    await page.goto(`${clientUrl}/#/reset-password?token=not-a-real-one`);
    await checkState(page, "new password", findings);

    // Signed in: every screen the navigation and the account tabs link to (a new screen is walked too).
    await signInThroughUi(page, user);
    const links = async (nav: string) =>
      page
        .getByRole("navigation", { name: nav })
        .getByRole("link")
        .evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
    const mainLinks = await links("Main");
    await visit(page, "#/account", settle);
    const hrefs = [...new Set([...mainLinks, ...(await links("Account"))])];
    expect(hrefs.length).toBeGreaterThanOrEqual(8);
    const titles = new Set<string>();
    for (const href of hrefs) {
      await visit(page, href, settle);
      expect(await page.locator("h1").count(), href).toBe(1);
      titles.add(await page.title());
      await checkState(page, href, findings, { shot: `screen-${href.slice(2).replace("/", "-")}` });
    }
    expect(titles.size).toBe(hrefs.length);

    // What opens on top of the screens.
    await visit(page, "#/todos", settle);
    await accountButton(page).click();
    await checkState(page, "account menu", findings, { shot: "screen-account-menu", scope: "[role=menu]" });
    await page.keyboard.press("Escape");
    const form = page.getByRole("form", { name: "New todo" });
    await form.getByLabel("Title").fill(" ");
    await form.getByRole("button", { name: "Add todo" }).click();
    await form.getByRole("alert").waitFor();
    await checkState(page, "todo validation error", findings, { scope: "form" });
    await openTodo(page, "Water the plants");
    await settle();
    await checkState(page, "todo dialog", findings, { shot: "screen-todo-dialog", scope: DIALOG });
    await page.getByRole("dialog").getByRole("button", { name: "Delete todo" }).click();
    // The toast comes once the service has deleted it.
    await page.getByRole("button", { name: "Undo" }).waitFor();
    await checkState(page, "undo toast", findings, { shot: "screen-undo-toast", scope: TOASTS });
    await page.getByRole("button", { name: "Undo" }).click();

    await visit(page, "#/files", settle);
    await page.getByRole("button", { name: /^Actions for / }).click();
    await page.getByRole("menuitem", { name: "Share link…" }).click();
    await page.getByRole("button", { name: "Create link" }).click();
    await page.getByLabel("New link").waitFor();
    await settle();
    await checkState(page, "share dialog", findings, { shot: "screen-share-dialog", scope: DIALOG });
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: /^Actions for / }).click();
    await page.getByRole("menuitem", { name: "Delete…" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Delete anyway" }).waitFor();
    await checkState(page, "delete attached file", findings, { scope: ALERT });
    await page.keyboard.press("Escape");

    await visit(page, "#/account/keys", settle);
    await page.getByRole("button", { name: "Create key" }).click();
    await checkState(page, "new key form", findings, { scope: DIALOG });
    await page.getByRole("dialog").getByLabel("Name").fill("Deploy from CI");
    await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
    await page.getByRole("textbox", { name: "API key" }).waitFor();
    await checkState(page, "new key shown once", findings, { shot: "screen-key-created", scope: DIALOG });
    await page.keyboard.press("Escape");

    await visit(page, "#/account", settle);
    await page.getByRole("button", { name: "Delete account…" }).click();
    await checkState(page, "delete account", findings, { shot: "screen-delete-account", scope: ALERT });
    await page.keyboard.press("Escape");

    await visit(page, "#/chat", settle);
    await chatReady(page);
    await page.getByLabel("Message", { exact: true }).fill("[script:markdown] A plan, please.");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator('[data-role="assistant"] pre').waitFor();
    await chatReady(page);
    await page.getByLabel("Message", { exact: true }).fill("[script:fail-midway] Go.");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("alert").waitFor();
    await checkState(page, "chat with an answer and an error", findings, { shot: "screen-chat-answer" });
    // A chat of your own takes files: the attach dialog lists yours.
    await page
      .getByRole("navigation", { name: "Your chats" })
      .getByRole("button", { name: "New chat" })
      .click();
    await page.getByRole("heading", { name: "New chat" }).waitFor();
    await page.getByRole("button", { name: "Attach a file" }).click();
    await page.getByRole("list", { name: "Your files" }).getByRole("button").first().waitFor();
    await checkState(page, "attach dialog", findings, { shot: "screen-attach-dialog", scope: DIALOG });
    await page.keyboard.press("Escape");

    // The service's consent page, which an AI client sends people to.
    await page.goto(await consentUrl());
    await page.getByRole("button", { name: "Allow" }).waitFor();
    await checkState(page, "consent page", findings, { shot: "screen-consent" });

    expect(findings).toEqual([]);
    await context.close();
  }, 150_000);
});
