import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { api, expectData, expectError } from "../helpers/http";
import { accept, createTeam, invite, join } from "../helpers/orgs";
import { AuditPageSchema } from "../../src/routes/audit/audit.schemas";
import { purgeOldAudit } from "../../src/orgs/audit.queries";
import { createDb } from "../../src/db/client";

const audit = (token: string, orgId: number, query = "") =>
  api(`/api/orgs/${orgId}/audit${query}`, { token }).then((res) => expectData(res, 200, AuditPageSchema));

describe("a team's audit trail", () => {
  it("records each change with actor, door, credential, IP and request id, newest first", async () => {
    const owner = await signUp();
    const guest = await signUp();
    const org = await createTeam(owner.token, "Audited");
    const { inviteToken } = await invite(owner.token, org.id, guest.email, "viewer");
    const accepted = await api("/api/invitations/accept", {
      method: "POST",
      token: guest.token,
      json: { token: inviteToken },
      headers: { "CF-Connecting-IP": "203.0.113.9", "X-Request-Id": "req-accept-0001" },
    });
    expect(accepted.status).toBe(200);
    await api(`/api/orgs/${org.id}/members/${guest.userId}`, {
      method: "POST",
      token: owner.token,
      json: { role: "member" },
    });
    const page = await audit(owner.token, org.id);
    expect(page.items.map((e) => e.action)).toEqual([
      "member.role_changed",
      "invitation.accepted",
      "invitation.created",
      "org.created",
    ]);
    expect(page.items[0]).toMatchObject({
      actorId: owner.userId,
      actorUsername: owner.username,
      door: "rest",
      credential: "session",
      target: `user-${guest.userId}`,
      detail: { from: "viewer", to: "member" },
    });
    expect(page.items[1]).toMatchObject({
      actorId: guest.userId,
      ip: "203.0.113.9",
      requestId: "req-accept-0001",
      detail: { role: "viewer" },
    });
    expect(page.items[3]).toMatchObject({ detail: { name: "Audited" } });
  });

  it("pages with cursor and filters by action and actorId; members and viewers get 403", async () => {
    const owner = await signUp();
    const admin = await signUp();
    const org = await createTeam(owner.token);
    await join(owner, org.id, admin, "admin");
    for (const name of ["a", "b", "c"]) {
      await api(`/api/orgs/${org.id}`, { method: "POST", token: admin.token, json: { name } });
    }
    const first = await audit(admin.token, org.id, "?limit=2&action=org.renamed");
    expect(first.items.map((e) => e.detail)).toEqual([{ name: "c" }, { name: "b" }]);
    const rest = await audit(admin.token, org.id, `?limit=2&action=org.renamed&cursor=${first.nextCursor}`);
    expect(rest.items.map((e) => e.detail)).toEqual([{ name: "a" }]);
    expect(rest.nextCursor).toBeNull();
    const byOwner = await audit(admin.token, org.id, `?actorId=${owner.userId}`);
    expect(byOwner.items.map((e) => e.action)).toEqual(["invitation.created", "org.created"]);
    expectError(await api(`/api/orgs/${org.id}/audit?action=DROP`, { token: admin.token }), 400);
    expectError(await api(`/api/orgs/${org.id}/audit?cursor=zz`, { token: admin.token }), 400);
    const viewer = await signUp();
    await join(owner, org.id, viewer, "viewer");
    expectError(await api(`/api/orgs/${org.id}/audit`, { token: viewer.token }), 403);
  });

  it("Y13: a deleted account's entries keep the action but not the person", async () => {
    const owner = await signUp();
    const guest = await signUp();
    const org = await createTeam(owner.token);
    const { inviteToken } = await invite(owner.token, org.id, guest.email);
    expect((await accept(guest.token, inviteToken)).status).toBe(200);
    expect(
      (await api(`/api/users/${guest.userId}/delete`, { method: "POST", token: guest.token })).status,
    ).toBe(200);
    const [entry] = (await audit(owner.token, org.id, "?action=invitation.accepted")).items;
    expect(entry).toMatchObject({ action: "invitation.accepted", actorId: null, actorUsername: null });
  });

  it("the hourly purge removes entries past the retention", async () => {
    const owner = await signUp();
    const org = await createTeam(owner.token);
    await api(`/api/orgs/${org.id}`, { method: "POST", token: owner.token, json: { name: "new" } });
    await env.DB.prepare("UPDATE audit_log_table SET at = ? WHERE orgId = ? AND action = 'org.created'")
      .bind(new Date(Date.now() - 400 * 86_400_000).toISOString(), org.id)
      .run();
    expect(await purgeOldAudit(createDb(env.DB), 365)).toBeGreaterThanOrEqual(1);
    const page = await audit(owner.token, org.id);
    expect(page.items.map((e) => e.action)).toEqual(["org.renamed"]);
  });
});
