// docs/security.md N1-N9: the account's e-mail address is what recovers it, so it changes only with
// the password and a link used at the new address, the old address hears of it, and a recovery by
// reset link undoes what an intruder left behind (their passkey, a pending change). Registration
// e-mails a verification link; GET /api/me says whether the address is proven.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { createKey } from "../helpers/credentials";
import { awaitEmail, requestResetLink, resetTokenIn, sentTo } from "../helpers/email";
import { api, expectData, expectError } from "../helpers/http";
import { addPasskey, passkeySignIn } from "../helpers/passkeys";
import { snapshotState, stateDiff } from "../helpers/state";
import { EmailConfirmedSchema } from "../../src/routes/email/email.schemas";
import { CreatedApiKeySchema } from "../../src/routes/keys/keys.schemas";
import { ResetDoneSchema } from "../../src/routes/password-reset/password-reset.schemas";
import { MeSchema, UserSchema } from "../../src/routes/users/users.schemas";

const CONFIRM = "/api/auth/email/confirm";
const INVALID = "Invalid or expired link: ask for a new one";
const VERIFY_SUBJECT = "Confirm your e-mail address";
const CHANGE_SUBJECT = "Confirm your new e-mail address";
const NOTICE_SUBJECT = "Your e-mail address is changing";

const freshEmail = () => `new_${crypto.randomUUID().slice(0, 12)}@example.test`;

async function me(token: string) {
  return expectData(await api("/api/me", { token }), 200, MeSchema).user;
}

const changeEmail = (user: SignedUpUser, body: Record<string, unknown>, token = user.token) =>
  api(`/api/users/${user.userId}`, { method: "POST", token, json: body });

const confirm = (token: string) => api(CONFIRM, { method: "POST", json: { token } });

/** The token of the last e-mail to `to` with `subject`. */
async function linkIn(to: string, subject: string) {
  return resetTokenIn(await awaitEmail(to, subject));
}

describe("e-mail verification", () => {
  it("N7: registration e-mails a verification link; using it once makes emailVerified true", async () => {
    const user = await signUp();
    expect(await me(user.token)).toMatchObject({
      email: user.email,
      emailVerified: false,
      pendingEmail: null,
    });
    const mail = await awaitEmail(user.email, VERIFY_SUBJECT);
    expect(mail.text).toContain("#/confirm-email?token=");
    const token = resetTokenIn(mail);

    const done = expectData(await confirm(token), 200, EmailConfirmedSchema);
    expect(done).toEqual({ userId: user.userId, email: user.email, changed: false });
    expect((await me(user.token)).emailVerified).toBe(true);
    expectError(await confirm(token), 400, INVALID);
  });

  it("N5: an unknown or malformed token is 400 and changes nothing", async () => {
    const before = await snapshotState();
    expectError(await confirm("A".repeat(43)), 400, INVALID);
    expectError(await api(CONFIRM, { method: "POST", json: { token: "short" } }), 400);
    expectError(await api(CONFIRM, { method: "POST", json: { token: "A".repeat(43), extra: 1 } }), 400);
    expectError(await api(CONFIRM, { method: "POST", json: {} }), 400);
    expect(stateDiff(before, await snapshotState())).toBeNull();
  });

  it("N7: POST /api/auth/email/verify sends another link; 409 once verified, 429 past 3 usable links", async () => {
    const user = await signUp();
    await awaitEmail(user.email, VERIFY_SUBJECT);
    const resend = () => api("/api/auth/email/verify", { method: "POST", token: user.token });
    expect(expectData(await resend(), 202, UserSchema.pick({ email: true }))).toEqual({ email: user.email });
    expect((await resend()).status).toBe(202);
    expectError(await resend(), 429);
    expect((await sentTo(user.email)).filter((m) => m.subject === VERIFY_SUBJECT)).toHaveLength(3);

    expect((await confirm(await linkIn(user.email, VERIFY_SUBJECT))).status).toBe(200);
    expectError(await resend(), 409, "Your e-mail address is verified already");
    expectError(await api("/api/auth/email/verify", { method: "POST" }), 401);
  });

  it("N7: using a password-reset link proves the address", async () => {
    const user = await signUp();
    await confirmReset(user);
    const token = (
      await api("/api/login", { method: "POST", json: { username: user.username, password: NEW } })
    ).body as { data: { token: string } };
    expect((await me(token.data.token)).emailVerified).toBe(true);
  });
});

const NEW = "a brand new long password";

async function confirmReset(user: SignedUpUser) {
  const token = await requestResetLink(user.email);
  const res = await api("/api/auth/password-reset/confirm", {
    method: "POST",
    json: { token, password: NEW },
  });
  return expectData(res, 200, ResetDoneSchema);
}

describe("changing the e-mail address", () => {
  it("N1: needs currentPassword: missing is 400, wrong is 403, and nothing changes", async () => {
    const user = await signUp();
    const before = await snapshotState();
    expectError(
      await changeEmail(user, { email: freshEmail() }),
      400,
      "currentPassword is required to change your e-mail address",
    );
    expectError(
      await changeEmail(user, { email: freshEmail(), currentPassword: "not the password" }),
      403,
      "Current password is incorrect",
    );
    expect(stateDiff(before, await snapshotState())).toBeNull();
    expect(await me(user.token)).toMatchObject({ email: user.email, pendingEmail: null });
  });

  it("N1, N2, N4: answers 202 with the address pending, tells the old address, and moves only when the new one's link is used", async () => {
    const user = await signUp();
    const next = freshEmail();
    const res = await changeEmail(user, { email: next, name: "Renamed", currentPassword: user.password });
    expect(expectData(res, 202, UserSchema)).toMatchObject({
      email: user.email,
      pendingEmail: next,
      name: "Renamed",
    });
    expect(await me(user.token)).toMatchObject({ email: user.email, pendingEmail: next });

    const notice = await awaitEmail(user.email, NOTICE_SUBJECT);
    expect(notice.text).toContain(`to ${next}`);
    expect(notice.text).toContain("reset it now");
    expect(notice.text).not.toMatch(/token=/);
    // Until the link is used, resets still go to the old address, and the new one recovers nothing.
    expect(await requestResetLink(user.email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const staleReset = resetTokenIn((await sentTo(user.email)).at(-1)!);

    const done = expectData(await confirm(await linkIn(next, CHANGE_SUBJECT)), 200, EmailConfirmedSchema);
    expect(done).toEqual({ userId: user.userId, email: next, changed: true });
    expect(await me(user.token)).toMatchObject({ email: next, pendingEmail: null, emailVerified: true });
    expect((await awaitEmail(user.email, "Your e-mail address was changed")).text).toContain(next);
    // The reset link e-mailed to the old address is spent with the change.
    expectError(
      await api("/api/auth/password-reset/confirm", {
        method: "POST",
        json: { token: staleReset, password: NEW },
      }),
      400,
    );
  });

  it("N5: a later request replaces the pending one: the first link is refused", async () => {
    const user = await signUp();
    const first = freshEmail();
    const second = freshEmail();
    expect((await changeEmail(user, { email: first, currentPassword: user.password })).status).toBe(202);
    const firstLink = await linkIn(first, CHANGE_SUBJECT);
    expect((await changeEmail(user, { email: second, currentPassword: user.password })).status).toBe(202);
    expectError(await confirm(firstLink), 400, INVALID);
    expect(
      expectData(await confirm(await linkIn(second, CHANGE_SUBJECT)), 200, EmailConfirmedSchema).email,
    ).toBe(second);
  });

  it("N1: sending the current address cancels a pending change (200, and its link is refused)", async () => {
    const user = await signUp();
    const next = freshEmail();
    expect((await changeEmail(user, { email: next, currentPassword: user.password })).status).toBe(202);
    const res = await changeEmail(user, { email: user.email });
    expect(expectData(res, 200, UserSchema)).toMatchObject({ email: user.email, pendingEmail: null });
    expectError(await confirm(await linkIn(next, CHANGE_SUBJECT)), 400, INVALID);
  });

  it("N6: an address another account has is 409 at the request, and at the link if taken meanwhile", async () => {
    const user = await signUp();
    const other = await signUp();
    expectError(await changeEmail(user, { email: other.email, currentPassword: user.password }), 409);

    const next = freshEmail();
    expect((await changeEmail(user, { email: next, currentPassword: user.password })).status).toBe(202);
    const link = await linkIn(next, CHANGE_SUBJECT);
    expect((await changeEmail(other, { email: next, currentPassword: other.password })).status).toBe(202);
    const othersLink = resetTokenIn(await awaitEmail(next, CHANGE_SUBJECT, { earlier: 1 }));
    expect((await confirm(othersLink)).status).toBe(200);
    expectError(await confirm(link), 409);
    expect(await me(user.token)).toMatchObject({ email: user.email, pendingEmail: next });
  });

  it("N1: an admin changes another user's address without their password, through the same link", async () => {
    const admin = await signUp();
    await env.DB.prepare("UPDATE users_table SET role = 'admin' WHERE id = ?").bind(admin.userId).run();
    const user = await signUp();
    const next = freshEmail();
    const res = await changeEmail(user, { email: next }, admin.token);
    expect(expectData(res, 202, UserSchema).pendingEmail).toBe(next);
    await awaitEmail(user.email, NOTICE_SUBJECT);
    expect((await confirm(await linkIn(next, CHANGE_SUBJECT))).status).toBe(200);
  });
});

describe("recovery locks an intruder out (issue 38, high)", () => {
  it("N3, R9: the intruder's passkey and pending e-mail change end with the owner's reset", async () => {
    const owner = await signUp();
    // The intruder knows the password: they sign in, add a passkey and ask to move the account.
    const intruder = { ...owner };
    const { authenticator } = await addPasskey(intruder);
    const theirs = freshEmail();
    expect((await changeEmail(intruder, { email: theirs, currentPassword: owner.password })).status).toBe(
      202,
    );
    const intruderLink = await linkIn(theirs, CHANGE_SUBJECT);
    // The owner hears of it at the old address, and recovers the account there.
    expect((await awaitEmail(owner.email, NOTICE_SUBJECT)).text).toContain(theirs);
    const reset = await requestResetLink(owner.email);
    const resetMail = (await sentTo(owner.email)).at(-1)!;
    expect(resetMail.text).toContain("removes the passkeys");
    const done = await api("/api/auth/password-reset/confirm", {
      method: "POST",
      json: { token: reset, password: NEW },
    });
    expect(expectData(done, 200, ResetDoneSchema).ended.passkeys).toBe(1);

    // The passkey signs nobody in, the change link moves nothing, and the address stays the owner's.
    expectError((await passkeySignIn(authenticator)).res, 401);
    expectError(await confirm(intruderLink), 400, INVALID);
    const login = await api("/api/login", {
      method: "POST",
      json: { username: owner.username, password: NEW },
    });
    const token = (login.body as { data: { token: string } }).data.token;
    expect(await me(token)).toMatchObject({ email: owner.email, pendingEmail: null, emailVerified: true });
  });
});

describe("API keys that write need the password", () => {
  it("N8: a key with a :write scope needs currentPassword (400 missing, 403 wrong); read-only keys do not", async () => {
    const user = await signUp();
    const body = { name: "writer", scopes: ["todos:read", "todos:write"] };
    const before = await snapshotState();
    expectError(
      await api("/api/keys", { method: "POST", token: user.token, json: body }),
      400,
      "currentPassword is required for a key with a write scope",
    );
    expectError(
      await api("/api/keys", {
        method: "POST",
        token: user.token,
        json: { ...body, currentPassword: "wrong!" },
      }),
      403,
      "Current password is incorrect",
    );
    expectError(
      await api("/api/keys", {
        method: "POST",
        token: user.token,
        json: { name: "files", scopes: ["files:write"] },
      }),
      400,
    );
    expect(stateDiff(before, await snapshotState())).toBeNull();

    const res = await api("/api/keys", {
      method: "POST",
      token: user.token,
      json: { ...body, currentPassword: user.password },
    });
    expect(expectData(res, 201, CreatedApiKeySchema).scopes).toEqual(["todos:read", "todos:write"]);
    expect((await createKey(user.token, ["todos:read", "files:read"])).key).toMatch(/^wsk_/);
  });
});
