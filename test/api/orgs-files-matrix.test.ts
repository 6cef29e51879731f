// docs/security.md F7: every file route by team role (owner, admin, member, viewer, outsider).
import { describe, expect, it } from "vitest";
import { FileLinkListSchema, FileLinkSchema } from "../../src/routes/file-links/file-links.schemas";
import { DeletedFileSchema, FilePageSchema, FileRecordSchema } from "../../src/routes/files/files.schemas";
import { UploadSessionSchema } from "../../src/routes/uploads/uploads.schemas";
import { signUp, type SignedUpUser } from "../helpers/auth";
import { createLink, deleteFile, getFile, linksPath } from "../helpers/files";
import { api, expectData, expectError, request, type ApiResult } from "../helpers/http";
import { teamOfFour, type Team } from "../helpers/orgs";
import { teamFileKey, uploadToTeam } from "../helpers/team-files";
import { downloadPath, finish } from "../helpers/uploads";

type Who = "owner" | "admin" | "member" | "viewer" | "outsider";
const EVERYONE: Who[] = ["owner", "admin", "member", "viewer", "outsider"];
const WRITERS = new Set<Who>(["owner", "admin", "member"]);

async function teamAndOutsider() {
  const [team, outsider] = await Promise.all([teamOfFour(), signUp()]);
  const as = (who: Who): SignedUpUser => (who === "outsider" ? outsider : team[who]);
  return { team, as };
}

/** A write by `who`: 403 naming the viewer's role and the action it lacks, 404 `notFound` for an outsider. */
function expectRefused(who: Who, res: ApiResult, notFound: string) {
  if (who === "viewer") expectError(res, 403, "Your role (viewer) may not do this (data:write)");
  else expectError(res, 404, notFound);
}

const segment = encodeURIComponent;

describe("team files: the role-by-route matrix", () => {
  it("uploads (form field, query parameter, resumable): members and up; viewers 403; outsiders 404", async () => {
    const { team, as } = await teamAndOutsider();
    const orgId = team.org.id;
    for (const who of EVERYONE) {
      const token = as(who).token;
      const attempts = [
        await uploadToTeam(token, orgId, `by ${who}`, "form"),
        await uploadToTeam(token, orgId, `by ${who}`, "query"),
        await api("/api/uploads", { method: "POST", token, json: { fileName: "big.bin", orgId } }),
      ];
      for (const res of attempts) {
        if (WRITERS.has(who)) expect(res.status, `${who}: ${res.text}`).toBe(201);
        else expectRefused(who, res, "Team not found");
      }
      if (WRITERS.has(who)) {
        const session = expectData(attempts[2]!, 201, UploadSessionSchema);
        expect((await finish(token, session.uploadId, "abort")).status).toBe(200);
      }
    }
  });

  it("reads (list, record, download with a credential): every member; outsiders 404", async () => {
    const { team, as } = await teamAndOutsider();
    const key = await teamFileKey(team.member.token, team.org.id, "shared plan");
    for (const who of EVERYONE) {
      const token = as(who).token;
      const list = await api(`/api/files?orgId=${team.org.id}`, { token });
      const record = await getFile(token, key);
      const download = await api(downloadPath(key), { token });
      if (who === "outsider") {
        expectError(list, 404, "Team not found");
        expectError(record, 404, "File not found");
        expectError(download, 404, "File not found");
        continue;
      }
      expect(expectData(list, 200, FilePageSchema).items.map((f) => f.key)).toEqual([key]);
      expect(expectData(record, 200, FileRecordSchema)).toMatchObject({ key, orgId: team.org.id });
      expect([download.status, download.text]).toEqual([200, "shared plan"]);
    }
    // No credential at all: a team's file is private, whatever its key.
    expectError(await api(downloadPath(key)), 404, "File not found");
  });

  it("share links (create, list, revoke): members and up; viewers 403; outsiders 404", async () => {
    const { team, as } = await teamAndOutsider();
    const key = await teamFileKey(team.member.token, team.org.id);
    for (const who of EVERYONE) {
      const token = as(who).token;
      const created = await api(linksPath(key), { method: "POST", token, json: { expiresIn: 3600 } });
      const listed = await api(linksPath(key), { token });
      if (!WRITERS.has(who)) {
        expectRefused(who, created, "File not found");
        expectRefused(who, listed, "File not found");
        const someone = await createLink(team.owner.token, key);
        const revoke = await api(`${linksPath(key)}/${someone.id}/revoke`, { method: "POST", token });
        expectRefused(who, revoke, "File not found");
        continue;
      }
      const link = expectData(created, 201, FileLinkSchema);
      expect(expectData(listed, 200, FileLinkListSchema).items.map((l) => l.id)).toContain(link.id);
      // The link makes the private file public: no token needed.
      const shared = await request(new URL(link.url).pathname);
      expect([shared.status, await shared.text()]).toEqual([200, "team notes"]);
      const revoked = await api(`${linksPath(key)}/${link.id}/revoke`, { method: "POST", token });
      expect(expectData(revoked, 200, FileLinkSchema).state).toBe("revoked");
    }
  });

  it("delete and restore: members and up; viewers 403; outsiders 404", async () => {
    const { team, as } = await teamAndOutsider();
    for (const who of EVERYONE) {
      const token = as(who).token;
      const key = await teamFileKey(team.member.token, team.org.id, `for ${who}`);
      const deleted = await deleteFile(token, key);
      if (!WRITERS.has(who)) {
        expectRefused(who, deleted, "File not found");
        expect((await deleteFile(team.member.token, key)).status).toBe(200);
        const restore = await api(`/api/files/${segment(key)}/restore`, { method: "POST", token });
        expectRefused(who, restore, "File not found");
        continue;
      }
      expectData(deleted, 200, DeletedFileSchema);
      expectError(await getFile(team.owner.token, key), 404);
      const restored = await api(`/api/files/${segment(key)}/restore`, { method: "POST", token });
      expect(expectData(restored, 200, FileRecordSchema)).toMatchObject({ key, orgId: team.org.id });
    }
  });

  it("resumable parts, completion and abort need the role still: a member made viewer gets 403, one removed 404", async () => {
    const team: Team = await teamOfFour();
    const { member, owner, org } = team;
    const start = () =>
      api("/api/uploads", {
        method: "POST",
        token: member.token,
        json: { fileName: "a.txt", orgId: org.id },
      });
    const first = expectData(await start(), 201, UploadSessionSchema);
    const second = expectData(await start(), 201, UploadSessionSchema);
    const role = (r: string) =>
      api(`/api/orgs/${org.id}/members/${member.userId}`, {
        method: "POST",
        token: owner.token,
        json: { role: r },
      });
    expect((await role("viewer")).status).toBe(200);
    expectError(await finish(member.token, first.uploadId), 403, /viewer/);
    expectError(await finish(member.token, first.uploadId, "abort"), 403, /viewer/);
    expect((await role("member")).status).toBe(200);
    expect((await finish(member.token, first.uploadId, "abort")).status).toBe(200);
    const removed = await api(`/api/orgs/${org.id}/members/${member.userId}/delete`, {
      method: "POST",
      token: owner.token,
    });
    expect(removed.status).toBe(200);
    expectError(await finish(member.token, second.uploadId), 404, "Upload not found");
  });
});
