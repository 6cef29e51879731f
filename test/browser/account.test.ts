import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailSentTo, resetLinkIn } from "../helpers/dev-mailbox";
import {
  accountButton,
  apiOrigin,
  clientUrl,
  connectBrowser,
  newContext,
  registerUser,
  screenshot,
  signInThroughUi,
  toastWith,
  type LoginResult,
} from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

/** Signs in over REST, as another device would: a second session. */
async function signInElsewhere(username: string, password: string): Promise<LoginResult> {
  const res = await fetch(`${apiOrigin}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: LoginResult }).data;
}

const statusWith = (token: string, path = "/api/me") =>
  fetch(`${apiOrigin}${path}`, { headers: { Authorization: `Bearer ${token}` } }).then((res) => res.status);

const openAccountScreen = async (page: Page, label: string) => {
  await accountButton(page).click();
  await page.getByRole("menuitem", { name: label }).click();
  await page.getByRole("heading", { level: 1, name: label }).waitFor();
};

describe("account screens", () => {
  it("edits the profile, ends another sign-in, makes and revokes an API key, changes the password, signs out everywhere", async () => {
    const user = await registerUser();
    const { context, offLoopback } = await newContext(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const page = await context.newPage();
    await signInThroughUi(page, user);

    // Profile: a new name and username; the account menu follows.
    await openAccountScreen(page, "Profile");
    const details = page.getByRole("form", { name: "Your details" });
    await details.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
    await details.getByLabel("Username").fill(`${user.username}_2`);
    await details.getByRole("button", { name: "Save changes" }).click();
    await details.getByRole("status").getByText("Saved").waitFor();
    expect(await accountButton(page).textContent()).toContain(`${user.username}_2`);
    const me = await fetch(`${apiOrigin}/api/me`, { headers: { Authorization: `Bearer ${user.token}` } });
    expect(((await me.json()) as { data: { user: { name: string } } }).data.user.name).toBe("Ada Lovelace");

    // A new e-mail address asks for the password, waits for its link, and the link's page moves it.
    const next = `moved-${user.username}@example.test`;
    await details.getByLabel("Email").fill(next);
    await details.getByLabel("Current password").fill(user.password);
    await details.getByRole("button", { name: "Save changes" }).click();
    await details.getByText(`Open the link we sent to ${next} to start using it.`).waitFor();
    await details.getByText(`Changing to ${next}`).waitFor();
    const link = resetLinkIn((await emailSentTo(apiOrigin, next, "Confirm your new e-mail address")).text);
    expect(link.startsWith(`${clientUrl}/#/confirm-email?token=`)).toBe(true);
    await page.goto(link);
    await page.getByText(`Your account's e-mail address is now ${next}.`).waitFor();
    await page.getByRole("button", { name: "Continue" }).click();
    await openAccountScreen(page, "Profile");
    await details.getByText("Your address is confirmed.").waitFor();

    // Sessions: another device shows up, and is signed out from here.
    const other = await signInElsewhere(`${user.username}_2`, user.password);
    await openAccountScreen(page, "Sign-in & security");
    const signIns = page.getByRole("list", { name: "Sign-ins" });
    await signIns.getByText("This device").waitFor();
    await expect.poll(() => signIns.getByRole("listitem").count()).toBe(3);
    await screenshot(page, "15-sign-ins");
    // Registering and the other device were both scripts here: sign out each one that isn't this device.
    const others = signIns.getByRole("button", { name: /^Sign out / });
    for (let left = await others.count(); left > 0; left--) {
      await others.first().click();
      await expect.poll(() => others.count()).toBe(left - 1);
    }
    await signIns.getByText("This device").waitFor();
    expect(await statusWith(other.token)).toBe(401);

    // API key: shown once, copied, works within its scopes, then revoked.
    await openAccountScreen(page, "API keys");
    await page.getByRole("button", { name: "Create key" }).click();
    const create = page.getByRole("dialog", { name: "Create an API key" });
    await create.getByLabel("Name").fill("Nightly backup");
    await create.getByLabel(/^Change todos/).check();
    // A key that writes takes the password.
    await create.getByLabel("Current password").fill(user.password);
    await create.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByRole("dialog", { name: "Your new key" });
    const key = await shown.getByLabel("API key").inputValue();
    expect(key).toMatch(/^wsk_/);
    await shown.getByRole("button", { name: "Copy key" }).click();
    await shown.getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await screenshot(page, "16-api-key-created");
    await shown.getByRole("button", { name: "Done" }).click();
    const keys = page.getByRole("list", { name: "API keys" });
    await keys.getByText("Nightly backup").waitFor();
    expect(await keys.textContent()).toContain(`wsk_…${key.slice(-4)}`);
    expect(await statusWith(key, "/api/todos")).toBe(200);
    expect(await statusWith(key, "/api/files")).toBe(403);
    await keys.getByRole("button", { name: "Revoke Nightly backup" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
    await toastWith(page, "Revoked “Nightly backup”").waitFor();
    await keys.getByText("Revoked").waitFor();
    expect(await statusWith(key, "/api/todos")).toBe(401);

    // Password: the wrong current one in plain words; then changed, this device stays signed in.
    await openAccountScreen(page, "Sign-in & security");
    const password = page.getByRole("form", { name: "Change password" });
    await password.getByLabel("Current password").fill("not my password");
    await password.getByLabel("New password").fill("a much better password");
    await password.getByRole("button", { name: "Change password" }).click();
    await password.getByText("Your current password isn't right.").waitFor();
    await password.getByLabel("Current password").fill(user.password);
    await password.getByRole("button", { name: "Change password" }).click();
    await password.getByText("Password changed. Your other devices are signed out.").waitFor();
    const elsewhere = await signInElsewhere(`${user.username}_2`, "a much better password");

    // Sign out everywhere: this tab goes back to sign-in, the other device's token stops working.
    await page.getByRole("button", { name: "Sign out everywhere…" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Sign out everywhere" }).click();
    await page.getByText("You are signed out on every device.").waitFor();
    expect(await statusWith(elsewhere.token)).toBe(401);
    expect(offLoopback).toEqual([]);
    await context.close();
  });

  it("deletes the account only once its username is typed, saying what goes with it", async () => {
    const user = await registerUser();
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user, "#/account");
    await page.getByRole("button", { name: "Delete account…" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete your account?" });
    expect(await dialog.textContent()).toContain("your files, and every share link to them");
    await dialog.getByLabel(`Type ${user.username} to confirm`).fill("someone else");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await dialog.getByText(`Type ${user.username} to confirm.`, { exact: true }).waitFor();
    expect(await statusWith(user.token)).toBe(200);

    await dialog.getByLabel(`Type ${user.username} to confirm`).fill(user.username);
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await page.getByText("Your account and everything in it are deleted.").waitFor();
    expect(await statusWith(user.token)).toBe(401);
    await context.close();
  });
});
