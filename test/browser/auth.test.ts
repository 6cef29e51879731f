import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  accountButton,
  clientUrl,
  connectBrowser,
  newContext,
  newCredentials,
  registerUser,
  screenshot,
  signInThroughUi,
  signOutThroughUi,
  apiOrigin,
  type LoginResult,
} from "./browser";
import { emailSentTo, resetLinkIn } from "../helpers/dev-mailbox";

const SESSION_KEY = "workers-api-client.session";

/** The login result the client keeps in this tab. */
async function storedSession(page: Page): Promise<LoginResult> {
  return JSON.parse((await page.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY))!) as LoginResult;
}

/** Changes the stored login result, as time or a revocation would have. */
async function editSession(page: Page, changes: Partial<LoginResult>) {
  const session = { ...(await storedSession(page)), ...changes };
  await page.evaluate(
    ([key, value]) => sessionStorage.setItem(key!, value!),
    [SESSION_KEY, JSON.stringify(session)],
  );
}

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

describe("register and sign in", () => {
  it("registers through the form and lands on the todos screen, signed in", async () => {
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    const consoleLines: string[] = [];
    page.on("console", (message) => consoleLines.push(message.text()));
    const user = newCredentials();

    await page.goto(clientUrl);
    await page.getByRole("button", { name: "No account yet? Register" }).click();
    const form = page.getByRole("form", { name: "Register" });
    await form.getByLabel("Username", { exact: true }).fill(user.username);
    await form.getByLabel("Password", { exact: true }).fill(user.password);
    await form.getByLabel("Name", { exact: true }).fill(user.name);
    await form.getByLabel("Email", { exact: true }).fill(user.email);
    // What an account needs and nothing more: the age is optional, on the profile.
    expect(
      await form.locator("input").evaluateAll((inputs) => inputs.map((i) => i.getAttribute("name"))),
    ).toEqual(["username", "password", "name", "email"]);
    await screenshot(page, "01-register");
    await form.getByRole("button", { name: "Create account" }).click();

    await accountButton(page).waitFor();
    expect(await accountButton(page).textContent()).toContain(user.username);
    await page.getByText("Nothing here yet.").waitFor();
    expect(await page.title()).toBe("Todos · Workers API");

    // The token stays in this tab's sessionStorage and is never written to the console.
    const stored = await page.evaluate(() => JSON.stringify(sessionStorage));
    const token = (JSON.parse(JSON.parse(stored)["workers-api-client.session"]) as { token: string }).token;
    expect(token.split(".")).toHaveLength(3);
    expect(consoleLines.join("\n")).not.toContain(token);
    expect(offLoopback).toEqual([]);
    await context.close();
  });

  it("says a wrong password in plain words (the service's message under Details), then signs in", async () => {
    const user = await registerUser();
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await page.goto(clientUrl);
    const form = page.getByRole("form", { name: "Sign in" });
    await form.getByLabel("Username", { exact: true }).fill(user.username);
    await form.getByLabel("Password", { exact: true }).fill("not-the-password");
    await form.getByRole("button", { name: "Sign in" }).click();
    const alert = form.getByRole("alert");
    await alert.waitFor();
    expect(await alert.locator("p").first().textContent()).toBe(
      "That username and password don't match an account.",
    );
    await alert.getByText("Details").click();
    await alert.getByText("HTTP 401: Invalid username or password").waitFor();
    await screenshot(page, "02-login-error");

    await form.getByLabel("Password", { exact: true }).fill(user.password);
    await form.getByRole("button", { name: "Sign in" }).click();
    await accountButton(page).waitFor();

    // A reload keeps the session (sessionStorage); signing out forgets it.
    await page.reload();
    await signOutThroughUi(page);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await context.close();
  });

  it("refreshes silently: before the token expires, and once when a call answers 401", async () => {
    const user = await registerUser();
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user);
    const refreshes: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/auth/refresh")) refreshes.push(new URL(request.url()).pathname);
    });
    const signedIn = await storedSession(page);

    // About to expire: the client refreshes before its first call.
    await editSession(page, { expiresAt: new Date(Date.now() + 5_000).toISOString() });
    await page.reload();
    await page.getByText("Nothing here yet.").waitFor();
    expect(refreshes).toHaveLength(1);
    // (The token itself may come out byte for byte the same: same session, same second.)
    const refreshed = await storedSession(page);
    expect(refreshed.refreshToken).not.toBe(signedIn.refreshToken);
    expect(Date.parse(refreshed.expiresAt) - Date.now()).toBeGreaterThan(3_500_000);

    // A token the service refuses, not yet expired by the clock: 401, one refresh, the same call again.
    await editSession(page, { token: `${refreshed.token.slice(0, -4)}AAAA` });
    await page.reload();
    await page.getByText("Nothing here yet.").waitFor();
    expect(refreshes).toHaveLength(2);
    expect(await accountButton(page).isVisible()).toBe(true);
    expect((await storedSession(page)).refreshToken).not.toBe(refreshed.refreshToken);

    // A refresh token the service no longer knows: back to the sign-in screen with a notice.
    await editSession(page, { token: "not.a.token", refreshToken: "A".repeat(43) });
    await page.reload();
    await page.getByRole("form", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("status").textContent()).toBe(
      "Your session has ended. Please sign in again.",
    );
    await context.close();
  });

  it("signing out ends the session on the service too", async () => {
    const user = await registerUser();
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user);
    const { token } = await storedSession(page);
    await signOutThroughUi(page);
    await expect
      .poll(
        async () =>
          (await fetch(`${apiOrigin}/api/me`, { headers: { Authorization: `Bearer ${token}` } })).status,
      )
      .toBe(401);
    await context.close();
  });

  it("resets a forgotten password through the e-mailed link, then signs in with the new one", async () => {
    const user = await registerUser();
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await page.goto(clientUrl);
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    const ask = page.getByRole("form", { name: "Forgot password" });
    await ask.getByLabel("Email").fill(user.email);
    await ask.getByRole("button", { name: "E-mail me a link" }).click();
    await page.getByText("If an account uses this e-mail address, a reset link is on its way.").waitFor();

    const { text } = await emailSentTo(apiOrigin, user.email, "Reset your password");
    const link = resetLinkIn(text);
    expect(link.startsWith(`${clientUrl}/#/reset-password?token=`)).toBe(true);
    await page.goto(link);
    const choose = page.getByRole("form", { name: "New password" });
    await choose.getByLabel("New password").fill("a password from the e-mail");
    await choose.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Your password is set. Sign in with it.").waitFor();

    const form = page.getByRole("form", { name: "Sign in" });
    await form.getByLabel("Username", { exact: true }).fill(user.username);
    await form.getByLabel("Password", { exact: true }).fill("a password from the e-mail");
    await form.getByRole("button", { name: "Sign in" }).click();
    await accountButton(page).waitFor();
    // The old password no longer signs in, and the link works once.
    expect(
      (
        await fetch(`${apiOrigin}/api/login`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ username: user.username, password: user.password }),
        })
      ).status,
    ).toBe(401);
    expect(offLoopback).toEqual([]);
    await context.close();
  });
});
