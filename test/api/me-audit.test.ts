import { describe, expect, it } from "vitest";
import { signIn, signUp } from "../helpers/auth";
import { awaitEmail, resetTokenIn } from "../helpers/email";
import { api, expectData } from "../helpers/http";
import { AuditPageSchema } from "../../src/routes/audit/audit.schemas";

const myAudit = (token: string, query = "") =>
  api(`/api/me/audit${query}`, { token }).then((res) => expectData(res, 200, AuditPageSchema));

describe("GET /api/me/audit: the account's own events", () => {
  it("records sign-ins, keys, password changes, e-mail verification and ended sessions, newest first", async () => {
    const alice = await signUp();
    const second = await signIn(alice.username, alice.password, { "CF-Connecting-IP": "198.51.100.7" });
    const key = await api("/api/keys", {
      method: "POST",
      token: alice.token,
      json: { name: "script", scopes: ["todos:read"] },
    });
    const keyId = (key.body as { data: { id: number } }).data.id;
    await api(`/api/keys/${keyId}/revoke`, { method: "POST", token: alice.token });
    const token = resetTokenIn(await awaitEmail(alice.email, "Confirm your e-mail address"));
    await api("/api/auth/email/confirm", { method: "POST", json: { token } });
    await api("/api/auth/logout", { method: "POST", token: second.token });
    await api(`/api/users/${alice.userId}`, {
      method: "POST",
      token: alice.token,
      json: { password: "a new password 123", currentPassword: alice.password },
    });
    const page = await myAudit(alice.token);
    expect(page.items.map((e) => [e.action, e.detail])).toEqual([
      ["password.changed", { by: "self" }],
      ["session.ended", { by: "logout" }],
      ["email.verified", null],
      ["api_key.revoked", null],
      ["api_key.created", { name: "script" }],
      ["account.signed_in", { method: "password" }],
      ["account.signed_in", { method: "register" }],
    ]);
    expect(page.items[5]).toMatchObject({ actorId: alice.userId, ip: "198.51.100.7", credential: "session" });
    expect(page.items[3]?.target).toBe(`key-${keyId}`);
    const filtered = await myAudit(alice.token, "?action=account.signed_in&limit=1");
    expect(filtered.items).toHaveLength(1);
    expect(filtered.nextCursor).not.toBeNull();
  });

  it("shows nobody else's events, and a failed revoke records nothing", async () => {
    const alice = await signUp();
    const bob = await signUp();
    await api("/api/keys/2147483647/revoke", { method: "POST", token: alice.token });
    const page = await myAudit(alice.token);
    expect(page.items.map((e) => e.action)).toEqual(["account.signed_in"]);
    expect(page.items.every((e) => e.actorId === alice.userId)).toBe(true);
    expect((await myAudit(bob.token)).items.map((e) => e.actorId)).toEqual([bob.userId]);
  });
});
