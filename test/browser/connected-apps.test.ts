import { createHash, randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiOrigin, connectBrowser, newContext, registerUser, screenshot, signInThroughUi } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

// Where the assistant listens for the redirect back (nothing does: the test answers it in the browser).
const CALLBACK = "http://127.0.0.1:43114/callback";

async function registerAssistant(): Promise<string> {
  const res = await fetch(`${apiOrigin}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "Browser test assistant",
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: "none",
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

const mcpStatus = async (token: string) =>
  (
    await fetch(`${apiOrigin}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    })
  ).status;

describe("connecting an AI client, and disconnecting it", () => {
  it("consents in the browser, lists the app under Connected apps, disconnects it, and its token stops working", async () => {
    const user = await registerUser();
    const clientId = await registerAssistant();
    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL(`${apiOrigin}/oauth/authorize`);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: CALLBACK,
      scope: "todos:read todos:write",
      state: "browser-state",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }).toString();

    const { context, offLoopback } = await newContext(browser);
    await context.route(`${CALLBACK}**`, (route) => route.fulfill({ status: 200, body: "connected" }));
    const page = await context.newPage();
    await page.goto(authorize.toString());
    await page.getByRole("heading", { name: "Allow Browser test assistant to use your todos?" }).waitFor();
    expect(await page.getByLabel(/Also create, change/).isChecked()).toBe(true);
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password").fill(user.password);
    await screenshot(page, "12-consent");
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL((url) => url.href.startsWith(CALLBACK));
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe("browser-state");
    expect(back.searchParams.get("iss")).toBe(apiOrigin);

    const tokens = await fetch(`${apiOrigin}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        redirect_uri: CALLBACK,
        client_id: clientId,
        code_verifier: verifier,
      }),
    });
    const { access_token } = (await tokens.json()) as { access_token: string };
    expect(await mcpStatus(access_token)).toBe(200);

    // The old address of the screen still opens it.
    await signInThroughUi(page, user, "#/apps");
    const apps = page.getByRole("list", { name: "Apps" });
    await apps.getByText("Browser test assistant").waitFor();
    expect(await apps.textContent()).toContain(
      "Can read your todos and change them · tokens go to 127.0.0.1",
    );
    await screenshot(page, "13-connected-apps");
    await apps.getByRole("button", { name: "Disconnect Browser test assistant" }).click();
    await page
      .getByRole("alertdialog", { name: "Disconnect “Browser test assistant”?" })
      .getByRole("button", { name: "Disconnect" })
      .click();
    await page.getByText("No apps connected.").waitFor();
    expect(await mcpStatus(access_token)).toBe(401);

    expect(offLoopback).toEqual([]);
    await context.close();
  });
});
