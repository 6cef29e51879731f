import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiOrigin,
  connectBrowser,
  listTitles,
  newContext,
  openTodo,
  registerUser,
  screenshot,
  signInThroughUi,
} from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

/** Another writer (another tab, an AI tool, a script): REST with the user's token. */
async function writeElsewhere(token: string, path: string, body: unknown) {
  const res = await fetch(`${apiOrigin}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { data: { id: number; version: number } }).data;
}

describe("live todos", () => {
  it("shows writes from elsewhere at once, and refuses a stale save with a clear message (412)", async () => {
    const user = await registerUser();
    const { context } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user);
    await page.getByLabel("Live updates").getByText("live").waitFor();

    // A todo created elsewhere appears without a reload.
    const todo = await writeElsewhere(user.token, "/api/todos", { title: "Written by a script" });
    await expect.poll(() => listTitles(page)).toEqual(["Written by a script"]);

    // Open it, then let another writer change it: the detail says so and keeps the form as it was.
    await openTodo(page, "Written by a script");
    // The dialog is named after the todo, whose title changes below.
    const detail = page.getByRole("dialog");
    const edit = detail.getByRole("form", { name: "Edit todo" });
    await writeElsewhere(user.token, `/api/todos/${todo.id}`, { title: "Renamed by the assistant" });
    await expect.poll(() => listTitles(page)).toEqual(["Renamed by the assistant"]);
    await detail.getByText(/^This todo was changed elsewhere/).waitFor();

    // Saving the stale form sends If-Match with version 1: refused, nothing overwritten.
    await edit.getByLabel("Title").fill("My stale edit");
    await edit.getByRole("button", { name: "Save" }).click();
    await detail.getByText(/^Not saved: this todo was changed elsewhere since you opened it/).waitFor();
    await screenshot(page, "12-stale-edit-refused");
    expect(await listTitles(page)).toEqual(["Renamed by the assistant"]);

    // Reload shows the current version; an edit from there saves.
    await detail.getByRole("button", { name: "Reload" }).click();
    await expect.poll(() => edit.getByLabel("Title").inputValue()).toBe("Renamed by the assistant");
    await edit.getByLabel("Title").fill("Both edits kept");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => listTitles(page)).toEqual(["Both edits kept"]);
    expect(await detail.getByRole("alert").count()).toBe(0);

    // A delete elsewhere leaves the list too.
    const gone = await writeElsewhere(user.token, "/api/todos", { title: "Short-lived" });
    await expect.poll(() => listTitles(page)).toContain("Short-lived");
    await writeElsewhere(user.token, `/api/todos/${gone.id}/delete`, {});
    await expect.poll(() => listTitles(page)).toEqual(["Both edits kept"]);
    await context.close();
  });
});
