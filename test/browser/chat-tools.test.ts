import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_DONE } from "../fakes/openai-compatible";
import {
  gated,
  connectBrowser,
  listTitles,
  newContext,
  registerUser,
  screenshot,
  signInThroughUi,
} from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

async function askToCreate(page: Page, title: string) {
  await page.getByLabel("Message", { exact: true }).fill(`[script:tool:createTodo {"title":"${title}"}]`);
  await page.getByRole("button", { name: "Send" }).click();
  const call = page.locator('.tool-call[data-tool="createTodo"]').last();
  await call.getByText(`"${title}"`).waitFor();
  await expect.poll(() => call.getAttribute("data-state")).toBe("waiting-approval");
  return call;
}

// Owned chats (`user-<id>`) have the todo tools only with AGENTS_REQUIRE_AUTH=true: the gated stack.
describe("chat tools with approval", () => {
  it("approving a createTodo creates the todo; denying one creates nothing", async () => {
    const user = await registerUser(gated);
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user, "#/chat", gated);

    const approved = await askToCreate(page, "Approved in chat");
    await screenshot(page, "chat-tool-approval");
    await approved.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => approved.getAttribute("data-state")).toBe("complete");
    await page.locator('[data-role="assistant"] .text').getByText(TOOL_DONE).first().waitFor();

    const denied = await askToCreate(page, "Denied in chat");
    await denied.getByRole("button", { name: "Deny" }).click();
    await expect.poll(() => denied.getAttribute("data-state")).toBe("denied");

    await page.goto(`${gated.clientUrl}/#/todos`);
    await expect.poll(() => listTitles(page)).toEqual(["Approved in chat"]);
    await screenshot(page, "chat-tool-todos");
    await context.close();
  });

  it("a pending approval survives a page reload", async () => {
    const user = await registerUser(gated);
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user, "#/chat", gated);
    await askToCreate(page, "After reload");
    await page.reload();
    const call = page.locator('.tool-call[data-tool="createTodo"]').last();
    await call.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => call.getAttribute("data-state")).toBe("complete");
    await page.goto(`${gated.clientUrl}/#/todos`);
    await expect.poll(() => listTitles(page)).toEqual(["After reload"]);
    await context.close();
  });
});
