// docs/security.md H1-H7: share links (forgery, replay past their limit, expiry, revocation, IDOR).
import { describe, expect, it } from "vitest";
import { linkToken } from "../../src/files/link-tokens";
import { userOwner } from "../../src/core/owner";
import { createDb } from "../../src/db/client";
import { dataDb, firstRowAnywhere, runEverywhere } from "../helpers/shards";
import { redeemLink } from "../../src/files/file-links";
import { FileLinkListSchema, FileLinkSchema } from "../../src/routes/file-links/file-links.schemas";
import { signUp } from "../helpers/auth";
import { api, expectData, expectError, request } from "../helpers/http";
import { createLink, deleteFile, linkPath, linksPath, postLink } from "../helpers/files";
import { snapshotState, stateDiff } from "../helpers/state";
import { storeText } from "../helpers/uploads";

const revokePath = (key: string, id: string) => `${linksPath(key)}/${id}/revoke`;

/** The link's row, in whichever data database holds its file's workspace. */
function linkRow(id: string) {
  return firstRowAnywhere<{ downloads: number; revokedAt: string | null; expiresAt: string }>(
    "SELECT downloads, revokedAt, expiresAt FROM file_links_table WHERE id = ?",
    id,
  );
}

/** `s` with character `i` changed. */
const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);

async function sharedFile(text = "shared bytes") {
  const owner = await signUp();
  const file = await storeText(owner.token, text, "report.txt", "text/plain", "docs");
  return { owner, file };
}

describe("share links", () => {
  it("H2: a link downloads without a token, counts each GET (not HEAD) and lists with its state", async () => {
    const { owner, file } = await sharedFile();
    const link = await createLink(owner.token, file.key, { expiresIn: 3600, maxDownloads: 2 });
    expect(link).toMatchObject({ downloads: 0, maxDownloads: 2, revokedAt: null, state: "active" });
    // `<owner>.<id>.<signature>`: the owner names the data database holding the link.
    expect(link.url).toMatch(
      new RegExp(`^http://service\\.test/api/links/user-${owner.userId}\\.[\\w-]{22}\\.[\\w-]{43}$`),
    );
    expect(Date.parse(link.expiresAt) - Date.parse(link.createdAt)).toBeGreaterThan(3590_000);

    const head = await request(linkPath(link.url), { method: "HEAD" });
    expect(head.status).toBe(200);
    const res = await request(linkPath(link.url));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Disposition")).toContain('filename="report.txt"');
    expect(await res.text()).toBe("shared bytes");

    const list = expectData(await api(linksPath(file.key), { token: owner.token }), 200, FileLinkListSchema);
    expect(list.items).toEqual([{ ...link, downloads: 1 }]);
    expect((await request(linkPath(link.url), { headers: { Range: "bytes=0-5" } })).status).toBe(206);
    expectError(await api(linkPath(link.url)), 410, /^Link used up/);
    expect((await request(linkPath(link.url), { method: "HEAD" })).status).toBe(410);
    expect((await linkRow(link.id))?.downloads).toBe(2);
  });

  it("H3: parallel downloads of a link allowing 3 let exactly 3 through", async () => {
    const { owner, file } = await sharedFile();
    const link = await createLink(owner.token, file.key, { expiresIn: 600, maxDownloads: 3 });
    const statuses = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const res = await request(linkPath(link.url));
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 410)).toHaveLength(9);
    expect((await linkRow(link.id))?.downloads).toBe(3);
  });

  it("H4: an expired link is 410 Link expired (the clock injected, then the row aged)", async () => {
    const { owner, file } = await sharedFile();
    const link = await createLink(owner.token, file.key, { expiresIn: 60 });
    const db = createDb(await dataDb({ userId: owner.userId }));
    const expiry = new Date(link.expiresAt);
    expect(await redeemLink(db, link.id, new Date(expiry.getTime() - 1))).toEqual({
      state: "active",
      key: file.key,
    });
    expect(await redeemLink(db, link.id, expiry)).toEqual({ state: "expired" });
    expect((await linkRow(link.id))?.downloads).toBe(1);

    await runEverywhere(
      "UPDATE file_links_table SET expiresAt = '2000-01-01T00:00:00.000Z' WHERE id = ?",
      link.id,
    );
    expectError(await api(linkPath(link.url)), 410, "Link expired");
    const [listed] = expectData(
      await api(linksPath(file.key), { token: owner.token }),
      200,
      FileLinkListSchema,
    ).items;
    expect(listed?.state).toBe("expired");
  });

  it("H5: a revoked link is 404; revoking again keeps the first time; only the owner revokes", async () => {
    const { owner, file } = await sharedFile();
    const other = await signUp();
    const link = await createLink(owner.token, file.key);
    expectError(await api(revokePath(file.key, link.id), { method: "POST", token: other.token }), 404);
    expect((await request(linkPath(link.url))).status).toBe(200);

    const revoked = await api(revokePath(file.key, link.id), { method: "POST", token: owner.token });
    const first = expectData(revoked, 200, FileLinkSchema);
    expect(first).toMatchObject({ id: link.id, state: "revoked", revokedAt: expect.any(String) });
    expectError(await api(linkPath(link.url)), 404, "Link not found");
    const again = await api(revokePath(file.key, link.id), { method: "POST", token: owner.token });
    expect(expectData(again, 200, FileLinkSchema).revokedAt).toBe(first.revokedAt);
    expectError(
      await api(revokePath(file.key, "AAAAAAAAAAAAAAAAAAAAAA"), { method: "POST", token: owner.token }),
      404,
      "Link not found",
    );
    for (const id of ["short", `${link.id}x`, "%00".repeat(8)]) {
      expectError(await api(revokePath(file.key, id), { method: "POST", token: owner.token }), 400);
    }
  });

  it("H1: forged, altered and foreign tokens are 404 Link not found, and count nothing", async () => {
    const { owner, file } = await sharedFile();
    const link = await createLink(owner.token, file.key, { expiresIn: 600, maxDownloads: 5 });
    const token = linkPath(link.url).split("/").at(-1)!;
    const [named, id, signature] = token.split(".") as [string, string, string];
    expect(named).toBe(`user-${owner.userId}`);
    const other = await createLink(owner.token, file.key);
    const otherId = linkPath(other.url).split("/").at(-1)!.split(".")[1]!;
    const forged = [
      `${named}.${flip(id, 3)}.${signature}`,
      `${named}.${id}.${flip(signature, 10)}`,
      // The last character carries two spare bits: another spelling of the same signature.
      `${named}.${id}.${signature.slice(0, -1)}${String.fromCharCode(signature.charCodeAt(42) ^ 1)}`,
      `${named}.${otherId}.${signature}`,
      // The signature covers the owner: another one named, or none (a token from before shards), is refused.
      `user-${owner.userId + 1}.${id}.${signature}`,
      `${id}.${signature}`,
      await linkToken("another-secret-that-is-long-enough-0123456789", link.id, userOwner(owner.userId)),
      `${named}.${id}.`,
      id,
      `${token}.x`,
      "x".repeat(200),
    ];
    const before = await snapshotState();
    for (const bad of forged) {
      expectError(await api(`/api/links/${encodeURIComponent(bad)}`), 404, "Link not found");
    }
    expectError(await api(`/api/links/${"x".repeat(300)}`), 400);
    // A sign-in token is no link token: refused by the length bound (400) or by its signature (404).
    const signIn = await api(`/api/links/${encodeURIComponent(owner.token)}`);
    expect([400, 404]).toContain(signIn.status);
    expect(stateDiff(before, await snapshotState())).toBeNull();
    expect((await linkRow(link.id))?.downloads).toBe(0);
  });

  it("H6: another user's file has no links for you: create, list and revoke are 404", async () => {
    const { owner, file } = await sharedFile();
    const link = await createLink(owner.token, file.key);
    const other = await signUp();
    const before = await snapshotState();
    expectError(await postLink(other.token, file.key, { expiresIn: 600 }), 404, "File not found");
    expectError(await api(linksPath(file.key), { token: other.token }), 404, "File not found");
    expectError(await api(revokePath(file.key, link.id), { method: "POST", token: other.token }), 404);
    expectError(await postLink(owner.token, "no-such-key", { expiresIn: 600 }), 404, "File not found");
    expect(stateDiff(before, await snapshotState())).toBeNull();
  });

  it("deleting the file ends its links (404) and their rows", async () => {
    const { owner, file } = await sharedFile();
    const link = await createLink(owner.token, file.key);
    expect((await deleteFile(owner.token, file.key)).status).toBe(200);
    expectError(await api(linkPath(link.url)), 404, "Link not found");
    expect(await linkRow(link.id)).toBeNull();
  });

  it("H7: at most 20 live links per file (409); revoking one frees a slot", async () => {
    const { owner, file } = await sharedFile();
    const links = [];
    for (let i = 0; i < 20; i++) links.push(await createLink(owner.token, file.key));
    expectError(await postLink(owner.token, file.key, { expiresIn: 600 }), 409, /^At most 20 live links/);
    await api(revokePath(file.key, links[0]!.id), { method: "POST", token: owner.token });
    expect((await postLink(owner.token, file.key, { expiresIn: 600 })).status).toBe(201);
  });

  it("V1-V5: bad bodies are 400 (413 past 1 MiB) and create nothing", async () => {
    const { owner, file } = await sharedFile();
    const before = await snapshotState();
    const raw = (body: string, type = "application/json") =>
      api(linksPath(file.key), {
        method: "POST",
        token: owner.token,
        body,
        headers: { "Content-Type": type },
      });
    for (const body of ["{", '{"expiresIn":60,}', "[]", "null", '"x"']) expectError(await raw(body), 400);
    expectError(await raw('{"expiresIn":600}', "text/plain"), 400);
    for (const json of [
      {},
      { expiresIn: "600" },
      { expiresIn: 59 },
      { expiresIn: 30 * 86400 + 1 },
      { expiresIn: 60.5 },
      { expiresIn: 1e300 },
      { expiresIn: 600, maxDownloads: 0 },
      { expiresIn: 600, maxDownloads: 1_000_001 },
      { expiresIn: 600, maxDownloads: null },
      { expiresIn: 600, fileId: 1 },
      { expiresIn: 600, downloads: -5 },
      JSON.parse('{"expiresIn":600,"__proto__":{"maxDownloads":1}}'),
    ]) {
      expectError(await postLink(owner.token, file.key, json), 400);
    }
    expectError(await raw(JSON.stringify({ expiresIn: 600, pad: "x".repeat(2 << 20) })), 413);
    expect(stateDiff(before, await snapshotState())).toBeNull();
  });
});
