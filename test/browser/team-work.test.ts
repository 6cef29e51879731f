import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailSentTo, resetLinkIn } from "../helpers/dev-mailbox";
import {
  apiOrigin,
  connectBrowser,
  listTitles,
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

type User = Awaited<ReturnType<typeof registerUser>>;

async function post<T>(token: string, path: string, json: unknown): Promise<T> {
  const res = await fetch(`${apiOrigin}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(json),
  });
  expect(res.status, path).toBeLessThan(300);
  return ((await res.json()) as { data: T }).data;
}

/** `user` joins as `role` through the e-mailed invitation (the subject of teams.test.ts, set up here over REST). */
async function join(owner: User, team: { id: number; name: string }, user: User, role: "member" | "viewer") {
  await post(owner.token, `/api/orgs/${team.id}/invitations`, { email: user.email, role });
  const link = resetLinkIn((await emailSentTo(apiOrigin, user.email, `Join ${team.name}`)).text);
  const token = new URL(link.replace("/#/", "/")).searchParams.get("token");
  await post(user.token, "/api/invitations/accept", { token });
}

const switcher = (page: Page) => page.getByLabel("Showing");

// Issue 41 in the client: a team's todos live for every member, with who did what, who is online,
// a viewer's read-only state, and the switcher that keeps personal and team todos apart.
describe("team work", () => {
  it("a team todo shows live to a teammate with its author and presence; a viewer reads only; personal stays apart", async () => {
    const [owner, member, viewer] = await Promise.all([registerUser(), registerUser(), registerUser()]);
    const team = await post<{ id: number; name: string }>(owner.token, "/api/orgs", {
      name: `Lab ${randomUUID().slice(0, 6)}`,
    });
    await join(owner, team, member, "member");
    await join(owner, team, viewer, "viewer");
    const personal = `Mine ${randomUUID().slice(0, 6)}`;
    const shared = `Shared ${randomUUID().slice(0, 6)}`;
    await post(member.token, "/api/todos", { title: personal });
    const findings: Finding[] = [];

    const sides = await Promise.all([newContext(browser), newContext(browser), newContext(browser)]);
    const [ownerPage, memberPage, viewerPage] = await Promise.all(
      sides.map((side) => side.context.newPage()),
    );
    await signInThroughUi(ownerPage!, owner);
    await signInThroughUi(memberPage!, member);
    for (const page of [ownerPage!, memberPage!]) {
      await switcher(page).selectOption(String(team.id));
      await page.getByRole("heading", { name: `${team.name}'s todos` }).waitFor();
    }

    // Each sees the other online; the owner adds a todo, the member sees it at once with its author.
    await ownerPage!.getByLabel("Teammates online").getByText(member.username).waitFor();
    await memberPage!.getByLabel("Teammates online").getByText(owner.username).waitFor();
    const form = ownerPage!.getByRole("form", { name: "New todo" });
    await form.getByLabel("Title").fill(shared);
    await form.getByRole("button", { name: "Add todo" }).click();
    await memberPage!.getByText(`${owner.username} created “${shared}”`).waitFor();
    expect(await listTitles(memberPage!)).toEqual([shared]);

    // The member ticks it: the owner's list says who completed it.
    await memberPage!.getByLabel(`Done: ${shared}`).check();
    await ownerPage!.getByText(`${member.username} completed “${shared}”`).waitFor();
    await checkState(memberPage!, "team todos", findings, { shot: "screen-team-todos" });

    // The viewer sees the team's todos but is offered nothing the service would refuse.
    await signInThroughUi(viewerPage!, viewer);
    await switcher(viewerPage!).selectOption(String(team.id));
    await viewerPage!
      .getByText("You can view this team's todos; ask an admin to make you a member to edit.")
      .waitFor();
    await viewerPage!.locator(".todo-list .title", { hasText: shared }).waitFor();
    expect(await viewerPage!.getByRole("form", { name: "New todo" }).count()).toBe(0);
    expect(await viewerPage!.getByLabel(`Done: ${shared}`).isDisabled()).toBe(true);
    const settle = networkSettler(viewerPage!);
    await settle();
    await checkState(viewerPage!, "team todos, viewer", findings, { shot: "screen-team-todos-viewer" });

    // The choice is kept for Files: the viewer sees the team's files, read-only.
    await viewerPage!.getByRole("link", { name: "Files" }).first().click();
    await viewerPage!.getByRole("heading", { name: `${team.name}'s files` }).waitFor();
    await viewerPage!
      .getByText("You can view this team's files; ask an admin to make you a member to edit.")
      .waitFor();
    await settle();
    await checkState(viewerPage!, "team files, viewer", findings);

    // Back to personal: only the member's own todo.
    await switcher(memberPage!).selectOption("");
    await memberPage!.getByRole("heading", { name: "Your todos" }).waitFor();
    await memberPage!.locator(".todo-list .title", { hasText: personal }).waitFor();
    expect(await listTitles(memberPage!)).toEqual([personal]);

    expect(findings).toEqual([]);
    expect(sides.flatMap((side) => side.offLoopback)).toEqual([]);
    await Promise.all(sides.map((side) => side.context.close()));
  });

  it("a save refused because a teammate changed the todo first (412) says so in words, with their version", async () => {
    const [owner, member] = await Promise.all([registerUser(), registerUser()]);
    const team = await post<{ id: number; name: string }>(owner.token, "/api/orgs", {
      name: `Desk ${randomUUID().slice(0, 6)}`,
    });
    await join(owner, team, member, "member");
    const todo = await post<{ id: number }>(owner.token, "/api/todos", {
      title: "Book the hall",
      orgId: team.id,
    });
    const findings: Finding[] = [];
    const { context, offLoopback } = await newContext(browser);
    const page = await context.newPage();
    await signInThroughUi(page, member);
    await switcher(page).selectOption(String(team.id));
    await page.getByRole("heading", { name: `${team.name}'s todos` }).waitFor();
    await openTodo(page, "Book the hall");
    const detail = page.getByRole("dialog");
    const edit = detail.getByRole("form", { name: "Edit todo" });

    // The owner renames it while the member's form still holds version 1.
    await post(owner.token, `/api/todos/${todo.id}`, { title: "Book the big hall" });
    await edit.getByLabel("Title").fill("Book the small hall");
    await edit.getByRole("button", { name: "Save" }).click();
    await detail
      .getByText(/^Not saved: this todo was changed by a teammate or elsewhere since you opened it/)
      .waitFor();
    await detail.getByText(`Current version: “Book the big hall”, open (${owner.username} changed`).waitFor();
    await checkState(page, "team todo, stale save refused", findings, { scope: '[role="dialog"]' });
    expect(await listTitles(page)).toEqual(["Book the big hall"]);

    expect(findings).toEqual([]);
    expect(offLoopback).toEqual([]);
    await context.close();
  });
});
