import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientOrigin, launchBrowser, newContext, newCredentials, registerUser, screenshot } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("register and sign in", () => {
  it("registers through the form and lands on the todos screen, signed in", async () => {
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    const consoleLines: string[] = [];
    page.on("console", (message) => consoleLines.push(message.text()));
    const user = newCredentials();

    await page.goto(clientOrigin);
    await page.getByRole("button", { name: "No account yet? Register" }).click();
    const form = page.getByRole("form", { name: "Register" });
    await form.getByLabel("Username", { exact: true }).fill(user.username);
    await form.getByLabel("Password", { exact: true }).fill(user.password);
    await form.getByLabel("Name", { exact: true }).fill(user.name);
    await form.getByLabel("Email", { exact: true }).fill(user.email);
    await screenshot(page, "01-register");
    await form.getByRole("button", { name: "Create account" }).click();

    await page.getByRole("button", { name: "Sign out" }).waitFor();
    expect(await page.locator(".topbar").textContent()).toContain(user.username);
    await page.getByRole("region", { name: "Todo list" }).getByText("Nothing here yet.").waitFor();

    // The token stays in this tab's sessionStorage and is never written to the console.
    const stored = await page.evaluate(() => JSON.stringify(sessionStorage));
    const token = (JSON.parse(JSON.parse(stored)["workers-api-client.session"]) as { token: string }).token;
    expect(token.split(".")).toHaveLength(3);
    expect(consoleLines.join("\n")).not.toContain(token);
    expect(offLoopback).toEqual([]);
    await context.close();
  });

  it("shows the service's error message for a wrong password, then signs in", async () => {
    const user = await registerUser();
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await page.goto(clientOrigin);
    const form = page.getByRole("form", { name: "Sign in" });
    await form.getByLabel("Username", { exact: true }).fill(user.username);
    await form.getByLabel("Password", { exact: true }).fill("not-the-password");
    await form.getByRole("button", { name: "Sign in" }).click();
    const alert = form.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe("Invalid username or password");
    await screenshot(page, "02-login-error");

    await form.getByLabel("Password", { exact: true }).fill(user.password);
    await form.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();

    // A reload keeps the session (sessionStorage); signing out forgets it.
    await page.reload();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("form", { name: "Sign in" }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await context.close();
  });
});
