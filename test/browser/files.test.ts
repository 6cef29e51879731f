import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiOrigin, launchBrowser, newContext, registerUser, screenshot, signInThroughUi } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Uploads `text` over REST as `name`; the stored key. */
async function upload(token: string, text: string, name: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([text], { type: "text/plain" }), name);
  const res = await fetch(`${apiOrigin}/api/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { key: string } }).data.key;
}

describe("my files", () => {
  it("lists your files with your usage, uploads one, deletes them, and asks before detaching one from a todo", async () => {
    const user = await registerUser();
    const report = await upload(user.token, "quarterly numbers", "report.txt");
    const notes = await upload(user.token, "notes", "notes.txt");
    const todo = await fetch(`${apiOrigin}/api/todos`, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Send the report", attachments: [{ fileKey: report }] }),
    });
    const todoId = ((await todo.json()) as { data: { id: number } }).data.id;

    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, user, "#/files");
    const screen = page.getByRole("region", { name: "My files" });
    const names = () =>
      screen.getByRole("list", { name: "Files" }).locator("li > a, li > span:first-child").allTextContents();
    await expect.poll(names).toEqual(["notes.txt", "report.txt"]);
    await screen.getByText(/22 B of 1\.0 GiB · 2 files/).waitFor();

    await screen.getByLabel("Upload a file").setInputFiles({
      name: "photo.png",
      mimeType: "image/png",
      buffer: Buffer.from("not really a png"),
    });
    await expect.poll(names).toEqual(["photo.png", "notes.txt", "report.txt"]);
    await screen.getByText(/· 3 files/).waitFor();
    await screenshot(page, "10-my-files");

    await screen.getByRole("button", { name: "Delete notes.txt" }).click();
    await expect.poll(names).toEqual(["photo.png", "report.txt"]);
    expect((await fetch(`${apiOrigin}/api/download/${encodeURIComponent(notes)}`)).status).toBe(404);

    // Attached to a todo: the service says which, and nothing goes until the person confirms.
    await screen.getByRole("button", { name: "Delete report.txt" }).click();
    const alert = screen.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`File is attached to your todo ${todoId}:`);
    await screenshot(page, "11-my-files-attached");
    expect(await names()).toEqual(["photo.png", "report.txt"]);
    await alert.getByRole("button", { name: "Delete anyway" }).click();
    await expect.poll(names).toEqual(["photo.png"]);
    await screen.getByText(/· 1 file/).waitFor();
    const detached = await fetch(`${apiOrigin}/api/todos/${todoId}`, {
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(((await detached.json()) as { data: { attachments: unknown[] } }).data.attachments).toEqual([]);

    expect(offLoopback).toEqual([]);
    await context.close();
  });
});
