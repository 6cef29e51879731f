// docs/security.md W1-W8 in the browser: the React client adds a passkey on the account screen and signs
// in with it, through @simplewebauthn/browser and Chromium's virtual authenticator (CDP), against the
// service built as it deploys. The page is opened as `localhost`, the RP id the service derives.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountButton,
  apiOrigin,
  connectBrowser,
  newContext,
  open,
  registerUser,
  screenshot,
  signInThroughUi,
  signOutThroughUi,
  toastWith,
} from "./browser";
import { addVirtualAuthenticator } from "./virtual-authenticator";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

const passkeysOf = async (token: string) => {
  const res = await fetch(`${apiOrigin}/api/passkeys`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { items: { name: string; lastUsedAt: string | null }[] } }).data
    .items;
};

const openSecurity = async (page: Page) => {
  await accountButton(page).click();
  await page.getByRole("menuitem", { name: "Sign-in & security" }).click();
  return page.getByRole("region", { name: "Passkeys" });
};

describe("passkeys", () => {
  it("adds a passkey on the account screen, signs out, signs in with it, deletes it", async () => {
    const user = await registerUser();
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    const authenticator = await addVirtualAuthenticator(page);
    await signInThroughUi(page, user, "#/todos", { ...open, clientUrl: open.passkeyUrl });

    // Add: a name and the password, then the device (the virtual authenticator verifies its user).
    let passkeys = await openSecurity(page);
    await passkeys.getByText("No passkeys yet.").waitFor();
    await passkeys.getByRole("button", { name: "Add a passkey" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a passkey" });
    await dialog.getByLabel("Name").fill("Test laptop");
    await dialog.getByLabel("Current password").fill(user.password);
    await screenshot(page, "17-passkey-add");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await toastWith(page, "Added “Test laptop”").waitFor();
    await passkeys.getByText("Test laptop").waitFor();
    await passkeys.getByText("never used").waitFor();
    await screenshot(page, "18-passkey-listed");
    expect(await authenticator.credentials()).toHaveLength(1);

    // Sign out, then in with the passkey: no username, no password.
    await signOutThroughUi(page);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await accountButton(page).waitFor();
    expect(await accountButton(page).textContent()).toContain(user.username);
    const session = JSON.parse(
      (await page.evaluate(() => sessionStorage.getItem("workers-api-client.session")))!,
    ) as { token: string; refreshToken: string };
    expect(session.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [used] = await passkeysOf(session.token);
    expect(used?.lastUsedAt).not.toBeNull();

    // The list says when it was used; delete it, and it signs nobody in any more.
    passkeys = await openSecurity(page);
    await passkeys.getByText(/last used/).waitFor();
    await passkeys.getByRole("button", { name: "Delete Test laptop" }).click();
    await screenshot(page, "19-passkey-delete");
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete passkey" }).click();
    await passkeys.getByText("No passkeys yet.").waitFor();
    expect(await passkeysOf(session.token)).toEqual([]);

    await signOutThroughUi(page);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    // A deleted passkey is refused as any passkey that fails: nobody learns which ones are registered.
    await page.getByRole("alert").getByText("That passkey didn't work here").waitFor();
    await screenshot(page, "20-passkey-deleted-refused");
    expect(offLoopback).toEqual([]);
    await authenticator.remove();
    await context.close();
  });
});
