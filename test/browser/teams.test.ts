import { randomUUID } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailSentTo, resetLinkIn } from "../helpers/dev-mailbox";
import {
  accountButton,
  apiOrigin,
  clientUrl,
  connectBrowser,
  newContext,
  registerUser,
  signInThroughUi,
  toastWith,
} from "./browser";
import { checkState, networkSettler, type Finding } from "./screen-checks";

let browser: Browser;
beforeAll(async () => {
  browser = await connectBrowser();
});
afterAll(() => browser?.close());

// docs/teams.md through the client: a team is made, someone is invited by e-mail, opens the link
// signed out, signs in, accepts, and the owner sees them in the team.
describe("teams", () => {
  it("creates a team, invites an address, and the e-mailed link makes its account a member", async () => {
    const [owner, invitee] = await Promise.all([registerUser(), registerUser()]);
    const teamName = `Research ${randomUUID().slice(0, 6)}`;
    const findings: Finding[] = [];

    const ownerSide = await newContext(browser);
    const page = await ownerSide.context.newPage();
    const settle = networkSettler(page);
    await signInThroughUi(page, owner);
    await accountButton(page).click();
    await page.getByRole("menuitem", { name: "Teams" }).click();
    await page.getByText("No teams yet.").waitFor();

    const create = page.getByRole("form", { name: "Create a team" });
    await create.getByLabel("Team name").fill(teamName);
    await create.getByRole("button", { name: "Create team" }).click();
    await page.getByRole("heading", { level: 1, name: teamName }).waitFor();

    const invite = page.getByRole("form", { name: "Invite someone" });
    await invite.getByLabel("E-mail address").fill(invitee.email);
    await invite.getByLabel("Role").selectOption("member");
    await invite.getByRole("button", { name: "Send invitation" }).click();
    const invitations = page.getByRole("list", { name: "Invitations" });
    await invitations.getByText(invitee.email).waitFor();
    await invitations.getByText("pending").waitFor();

    // The invitee opens the e-mailed link signed out: sign in first, and the accept page comes back.
    const link = resetLinkIn((await emailSentTo(apiOrigin, invitee.email, `Join ${teamName}`)).text);
    expect(link.startsWith(`${clientUrl}/#/accept-invite?token=`)).toBe(true);
    const inviteeSide = await newContext(browser);
    const other = await inviteeSide.context.newPage();
    await other.goto(link);
    await other.getByText("You were invited to a team.").waitFor();
    const signIn = other.getByRole("form", { name: "Sign in" });
    await signIn.getByLabel("Username", { exact: true }).fill(invitee.username);
    await signIn.getByLabel("Password", { exact: true }).fill(invitee.password);
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await other.getByRole("heading", { level: 1, name: "Join a team" }).waitFor();
    await checkState(other, "accept invitation", findings);
    await other.getByRole("button", { name: "Accept invitation" }).click();
    await other.getByRole("heading", { level: 1, name: teamName }).waitFor();
    expect(await other.getByRole("list", { name: "Members" }).textContent()).toContain(invitee.name);

    // The owner sees the new member, whose role they may change, and the invitation accepted.
    await page.reload();
    const members = page.getByRole("list", { name: "Members" });
    await members.getByText(invitee.name).waitFor();
    const role = page.getByLabel(`Role of ${invitee.name}`);
    expect(await role.inputValue()).toBe("member");
    await role.selectOption("viewer");
    await toastWith(page, `${invitee.name} is now viewer`).waitFor();
    await invitations.getByText("accepted").waitFor();
    await page.getByRole("list", { name: "Activity" }).getByText("accepted an invitation").waitFor();
    await settle();
    await checkState(page, "team detail", findings, { shot: "screen-team" });
    await page.getByRole("link", { name: "All teams" }).click();
    await page.getByRole("list", { name: "Your teams" }).getByText(teamName).waitFor();
    await settle();
    await checkState(page, "teams", findings, { shot: "screen-teams" });

    expect(findings).toEqual([]);
    expect([...ownerSide.offLoopback, ...inviteeSide.offLoopback]).toEqual([]);
    await Promise.all([ownerSide.context.close(), inviteeSide.context.close()]);
  });
});
