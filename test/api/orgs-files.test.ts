// docs/security.md F8..F13: a team's files apart from its members' own, its quota, trail and erasure.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AuditPageSchema } from "../../src/routes/audit/audit.schemas";
import { FilePageSchema, UploadResultSchema } from "../../src/routes/files/files.schemas";
import { DeletedOrgSchema } from "../../src/routes/orgs/orgs.schemas";
import { UploadSessionSchema } from "../../src/routes/uploads/uploads.schemas";
import { TodoWithAttachmentsSchema } from "../../src/todos/todos.schemas";
import { DeletedUserSchema } from "../../src/routes/users/users.schemas";
import { signUp } from "../helpers/auth";
import { createKey } from "../helpers/credentials";
import { createLink, deleteFile, listFiles } from "../helpers/files";
import { api, expectData, expectError } from "../helpers/http";
import { createTeam, join, teamOfFour } from "../helpers/orgs";
import { teamFileKey, teamForm, uploadToTeam, withQuotas } from "../helpers/team-files";
import { downloadPath, storeText } from "../helpers/uploads";
import { dataDb } from "../helpers/shards";

const TEAM_QUOTA = /^Team storage quota exceeded: the limit is (\d+) bytes, (\d+) are in use/;

async function teamOfTwo() {
  const [owner, member] = await Promise.all([signUp(), signUp()]);
  const org = await createTeam(owner.token);
  await join(owner, org.id, member, "member");
  return { org, owner, member };
}

describe("team files apart from personal files", () => {
  it("F8: the personal list never shows team files, the team's list never personal ones", async () => {
    const { org, member } = await teamOfTwo();
    const mine = await storeText(member.token, "mine", "mine.txt");
    const theirs = await teamFileKey(member.token, org.id);
    const personal = await listFiles(member.token);
    expect(personal.items.map((f) => f.key)).toEqual([mine.key]);
    expect(personal.items[0]!.orgId).toBeNull();
    expect(personal.usage).toMatchObject({ files: 1, bytes: 4 });
    const team = await listFiles(member.token, `orgId=${org.id}`);
    expect(team.items.map((f) => [f.key, f.orgId, f.visibility])).toEqual([[theirs, org.id, "private"]]);
    expect(team.usage).toMatchObject({ files: 1, bytes: "team notes".length, quotaBytes: 10 * 1024 ** 3 });
  });

  it("F9: team uploads count against the team's quota, not the uploader's, and the other way round", async () => {
    const { org, member } = await teamOfTwo();
    const post = (quotas: { user?: number; org?: number }, orgId: number | undefined, text: string) =>
      withQuotas(quotas, "/api/upload", { method: "POST", token: member.token, body: teamForm(orgId, text) });
    // The member's own quota is full; the team's has room.
    expect((await post({ user: 5 }, undefined, "12345")).status).toBe(201);
    expect((await post({ user: 5, org: 100 }, org.id, "team bytes")).status).toBe(201);
    expectError(await post({ user: 5 }, undefined, "x"), 413, /^Storage quota exceeded/);
    // The team's quota is full; the member's own has room.
    const refused = expectError(await post({ user: 100, org: 12 }, org.id, "more bytes"), 413, TEAM_QUOTA);
    expect(TEAM_QUOTA.exec(refused.message)!.slice(1)).toEqual(["12", "10"]);
    expect((await post({ user: 100, org: 12 }, undefined, "more bytes")).status).toBe(201);
    const start = (size: number) =>
      withQuotas({ org: 12 }, "/api/uploads", {
        method: "POST",
        token: member.token,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ fileName: "v.bin", size, orgId: org.id }),
      });
    expectError(await start(3), 413, TEAM_QUOTA);
    expectData(await start(2), 201, UploadSessionSchema);
    expect((await listFiles(member.token)).usage).toMatchObject({ files: 2, bytes: 15, reservedBytes: 0 });
    expect((await listFiles(member.token, `orgId=${org.id}`)).usage).toMatchObject({
      files: 1,
      bytes: 10,
      reservedBytes: 2,
    });
  });

  it("F10: refuses a malformed or contradictory team upload with 400", async () => {
    const { org, member } = await teamOfTwo();
    const late = new FormData();
    late.append("file", new Blob(["x"]), "x.txt");
    late.append("orgId", String(org.id));
    const publicTeamFile = teamForm(org.id, "x");
    publicTeamFile.append("visibility", "public");
    for (const [body, message] of [
      [late, "orgId must come before file (or be sent as ?orgId=)"],
      [teamForm("abc", "x"), "Invalid orgId"],
      [teamForm("0", "x"), "Invalid orgId"],
      [publicTeamFile, "A team's files are private to the team: share one with a link instead"],
    ] as const) {
      expectError(await api("/api/upload", { method: "POST", token: member.token, body }), 400, message);
    }
    const differing = await api(`/api/upload?orgId=${org.id + 1}`, {
      method: "POST",
      token: member.token,
      body: teamForm(org.id, "x"),
    });
    expectError(differing, 400, /different teams/);
    expectError(await api("/api/files?orgId=x", { token: member.token }), 400);
    // Past 2^53 a number is no exact id: 400, as on GET /api/todos?orgId=.
    expectError(await api("/api/files?orgId=9999999999999999", { token: member.token }), 400);
    const publicResumable = { fileName: "a", orgId: org.id, visibility: "public" };
    expectError(
      await api("/api/uploads", { method: "POST", token: member.token, json: publicResumable }),
      400,
    );
    expectError(
      await api("/api/uploads", { method: "POST", token: member.token, json: { fileName: "a", orgId: 0 } }),
      400,
    );
  });

  it("F11: a team file attaches to no personal todo; a public personal file still does", async () => {
    const { org, member } = await teamOfTwo();
    const team = await teamFileKey(member.token, org.id);
    const mine = await storeText(member.token, "mine", "mine.txt");
    const res = await api("/api/todos", {
      method: "POST",
      token: member.token,
      json: { title: "t", attachments: [{ fileKey: team }, { fileKey: mine.key }] },
    });
    expect(expectData(res, 201, TodoWithAttachmentsSchema).attachments.map((a) => a.fileKey)).toEqual([
      mine.key,
    ]);
  });

  it("F12: team writes are in the team's trail, with the door and the credential", async () => {
    const { org, owner, member } = await teamOfTwo();
    const key = await teamFileKey(member.token, org.id);
    const link = await createLink(member.token, key);
    expect(
      (
        await api(`/api/files/${encodeURIComponent(key)}/links/${link.id}/revoke`, {
          method: "POST",
          token: member.token,
        })
      ).status,
    ).toBe(200);
    expect((await deleteFile(member.token, key)).status).toBe(200);
    expect(
      (await api(`/api/files/${encodeURIComponent(key)}/restore`, { method: "POST", token: member.token }))
        .status,
    ).toBe(200);
    const trail = expectData(
      await api(`/api/orgs/${org.id}/audit?limit=10`, { token: owner.token }),
      200,
      AuditPageSchema,
    );
    const fileEvents = trail.items.filter((e) => e.target === key);
    expect(fileEvents.map((e) => e.action)).toEqual([
      "file.restored",
      "file.deleted",
      "link.revoked",
      "link.created",
      "file.uploaded",
    ]);
    for (const entry of fileEvents) {
      expect(entry).toMatchObject({ actorId: member.userId, door: "rest", credential: "session" });
    }
    expect(fileEvents.at(-1)!.detail).toEqual({ name: "notes.txt", size: "team notes".length });
    // A second revoke changes nothing and records nothing.
    await api(`/api/files/${encodeURIComponent(key)}/links/${link.id}/revoke`, {
      method: "POST",
      token: member.token,
    });
    const again = expectData(
      await api(`/api/orgs/${org.id}/audit?action=link.revoked`, { token: owner.token }),
      200,
      AuditPageSchema,
    );
    expect(again.items).toHaveLength(1);
  });
});

describe("team files through an API key", () => {
  it("F12: a key with files scopes works with its user's role; its writes are in the trail as api_key", async () => {
    const { org, owner, member } = await teamOfTwo();
    const { key: secret } = await createKey(member.token, ["files:read", "files:write"]);
    const { key } = expectData(
      await uploadToTeam(secret, org.id, "by key", "query"),
      201,
      UploadResultSchema,
    );
    const download = await api(downloadPath(key), { token: secret });
    expect([download.status, download.text]).toEqual([200, "by key"]);
    const trail = expectData(
      await api(`/api/orgs/${org.id}/audit?action=file.uploaded`, { token: owner.token }),
      200,
      AuditPageSchema,
    );
    expect(trail.items).toEqual([
      expect.objectContaining({ actorId: member.userId, credential: "api_key", target: key }),
    ]);
    const readOnly = await createKey(member.token, ["files:read"]);
    expectError(await uploadToTeam(readOnly.key, org.id), 403);
  });
});

describe("team files and erasure", () => {
  it("F13: deleting a team erases its objects in R2, records, links and usage; members keep their own", async () => {
    const { org, owner, member } = await teamOfFour();
    const kept = await teamFileKey(member.token, org.id, "kept");
    const binned = await teamFileKey(owner.token, org.id, "binned");
    expect((await deleteFile(owner.token, binned)).status).toBe(200);
    const link = await createLink(member.token, kept);
    const draft = expectData(
      await api("/api/uploads", {
        method: "POST",
        token: member.token,
        json: { fileName: "d.bin", orgId: org.id },
      }),
      201,
      UploadSessionSchema,
    );
    const personal = await storeText(member.token, "personal", "p.txt");
    // Its data database, read before the team's workspace row goes with it.
    const teamDb = await dataDb({ orgId: org.id });
    const gone = expectData(
      await api(`/api/orgs/${org.id}/delete`, { method: "POST", token: owner.token }),
      200,
      DeletedOrgSchema,
    );
    expect(gone.erased).toMatchObject({ files: 2, filesPending: false });
    for (const key of [kept, binned]) expect(await env.R2_BUCKET.head(key)).toBeNull();
    expect(await env.R2_BUCKET.head(personal.key)).not.toBeNull();
    const rows = await teamDb
      .prepare(
        `SELECT (SELECT count(*) FROM files_table WHERE orgId = ?1) + (SELECT count(*) FROM deleted_files_table WHERE orgId = ?1)
        + (SELECT count(*) FROM uploads_table WHERE orgId = ?1) + (SELECT count(*) FROM storage_reservations_table WHERE orgId = ?1)
        + (SELECT count(*) FROM org_storage_usage_table WHERE orgId = ?1) + (SELECT count(*) FROM file_links_table WHERE id = ?2) AS n`,
      )
      .bind(org.id, link.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
    expectError(await api(new URL(link.url).pathname), 404);
    expectError(
      await api(`/api/uploads/${draft.uploadId}/complete`, { method: "POST", token: member.token }),
      404,
    );
    expect((await listFiles(member.token)).items.map((f) => f.key)).toEqual([personal.key]);
  });

  it("F13: a member who leaves keeps nothing of the team; the team keeps their files, after their account goes too", async () => {
    const { org, owner, member } = await teamOfTwo();
    const key = await teamFileKey(member.token, org.id, "their work");
    const left = await api(`/api/orgs/${org.id}/members/${member.userId}/delete`, {
      method: "POST",
      token: member.token,
    });
    expect(left.status).toBe(200);
    expectError(await api(`/api/files?orgId=${org.id}`, { token: member.token }), 404, "Team not found");
    expectError(await api(downloadPath(key), { token: member.token }), 404);
    expect((await listFiles(member.token)).items).toEqual([]);
    const deleted = await api(`/api/users/${member.userId}/delete`, { method: "POST", token: member.token });
    expect(expectData(deleted, 200, DeletedUserSchema).erasure.objects).toBe(0);
    const download = await api(downloadPath(key), { token: owner.token });
    expect([download.status, download.text]).toEqual([200, "their work"]);
    const page = expectData(
      await api(`/api/files?orgId=${org.id}`, { token: owner.token }),
      200,
      FilePageSchema,
    );
    expect(page.items.map((f) => f.key)).toEqual([key]);
  });

  it("F13: a member who deletes their account hands their team files to the team's owner; their unfinished team upload is erased", async () => {
    const { org, owner, member } = await teamOfTwo();
    const key = await teamFileKey(member.token, org.id, "their work");
    const binned = await teamFileKey(member.token, org.id, "binned");
    expect((await deleteFile(member.token, binned)).status).toBe(200);
    const draft = expectData(
      await api("/api/uploads", {
        method: "POST",
        token: member.token,
        json: { fileName: "d.bin", orgId: org.id },
      }),
      201,
      UploadSessionSchema,
    );
    const deleted = await api(`/api/users/${member.userId}/delete`, { method: "POST", token: member.token });
    // The upload in progress, nothing of the team's files.
    expect(expectData(deleted, 200, DeletedUserSchema).erasure).toMatchObject({ objects: 1, pending: false });
    const shard = await dataDb({ orgId: org.id });
    const recorded = await shard
      .prepare(
        "SELECT userId FROM files_table WHERE key = ?1 UNION ALL SELECT userId FROM deleted_files_table WHERE key = ?2",
      )
      .bind(key, binned)
      .all<{ userId: number }>();
    expect(recorded.results).toEqual([{ userId: owner.userId }, { userId: owner.userId }]);
    const held = await shard
      .prepare(
        "SELECT (SELECT count(*) FROM uploads_table WHERE userId = ?1) + (SELECT count(*) FROM storage_reservations_table WHERE userId = ?1) AS n",
      )
      .bind(member.userId)
      .first<{ n: number }>();
    expect(held!.n).toBe(0);
    expect(await env.R2_BUCKET.head(key)).not.toBeNull();
    expectError(
      await api(`/api/uploads/${draft.uploadId}/complete`, { method: "POST", token: owner.token }),
      404,
    );
    const download = await api(downloadPath(key), { token: owner.token });
    expect([download.status, download.text]).toEqual([200, "their work"]);
    expect(
      (await api(`/api/files/${encodeURIComponent(binned)}/restore`, { method: "POST", token: owner.token }))
        .status,
    ).toBe(200);
  });

  it("F13: an owner deleting their account with a team of their own erases the team's objects too, once", async () => {
    const owner = await signUp();
    const org = await createTeam(owner.token);
    const res = await uploadToTeam(owner.token, org.id, "solo");
    const { key } = expectData(res, 201, UploadResultSchema);
    const draft = { fileName: "d.bin", orgId: org.id };
    expect((await api("/api/uploads", { method: "POST", token: owner.token, json: draft })).status).toBe(201);
    const deleted = await api(`/api/users/${owner.userId}/delete`, { method: "POST", token: owner.token });
    // The file and the upload in progress, each once (the upload is both the user's and the team's).
    expect(expectData(deleted, 200, DeletedUserSchema).erasure).toMatchObject({ objects: 2, pending: false });
    expect(await env.R2_BUCKET.head(key)).toBeNull();
  });
});
