// docs/security.md H1 (link tokens), H4 (expiry on an injected clock), F5 and E5 (cursors).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { linkToken, newLinkId, readLinkToken } from "../../src/files/link-tokens";
import { orgOwner, userOwner } from "../../src/core/owner";
import { base64url } from "../../src/core/base64url";
import { derivedKey } from "../../src/core/derived-keys";
import { issueTicket } from "../../src/auth/tickets";
import { linkState } from "../../src/files/file-links";
import { CursorQuery, decodeCursor, encodeCursor } from "../../src/core/paging";
import { expectFastAsync, expectFast, hostile, KB8 } from "../helpers/hostile";

const secret = env.JWT_SECRET;

describe("link tokens", () => {
  it("H1: a token names its link id and nothing else verifies", async () => {
    const id = newLinkId();
    expect(id).toMatch(/^[\w-]{22}$/);
    expect(newLinkId()).not.toBe(id);
    const token = await linkToken(secret, id, userOwner(7));
    expect(token.startsWith(`user-7.${id}.`)).toBe(true);
    expect(await readLinkToken(secret, token)).toEqual({ id, owner: userOwner(7) });
    expect(await linkToken(secret, id, userOwner(7))).toBe(token);
    const team = await linkToken(secret, id, orgOwner(3));
    expect(await readLinkToken(secret, team)).toEqual({ id, owner: orgOwner(3) });
    expect(await readLinkToken("another-secret-long-enough-for-hs256-0123456789", token)).toBeNull();
    const signature = token.split(".")[2]!;
    expect(await readLinkToken(secret, `user-7.${newLinkId()}.${signature}`)).toBeNull();
    // The owner is signed: another one, or none, is refused.
    expect(await readLinkToken(secret, `user-8.${id}.${signature}`)).toBeNull();
    expect(await readLinkToken(secret, `org-7.${id}.${signature}`)).toBeNull();
    expect(await readLinkToken(secret, `${id}.${signature}`)).toBeNull();
    expect(await readLinkToken(secret, token.toUpperCase())).toBeNull();
  });

  it("H1: a connect ticket or login-shaped token signed with the same secret is no link", async () => {
    const { ticket } = await issueTicket(
      secret,
      { id: 1, username: "ada", tokenVersion: 0 },
      { agent: "chat-agent", name: "x" },
    );
    expect(await readLinkToken(secret, ticket)).toBeNull();
    // HMAC(JWT_SECRET, id) straight, without the purpose key, is refused too.
    const id = newLinkId();
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const raw = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(id)));
    const signature = btoa(String.fromCharCode(...raw))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    expect(await readLinkToken(secret, `${id}.${signature}`)).toBeNull();
  });

  it("H1: a token from before shards (`<id>.<signature>`) still reads, naming no owner", async () => {
    const id = newLinkId();
    const key = await derivedKey(secret, "file-share-link/v1");
    const signed = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(id));
    expect(await readLinkToken(secret, `${id}.${base64url(new Uint8Array(signed))}`)).toEqual({
      id,
      owner: null,
    });
  });

  it("E5: 8 KB of hostile input is refused in milliseconds", async () => {
    for (const input of [...hostile(), `${"a".repeat(22)}.${"b".repeat(KB8)}`]) {
      await expectFastAsync(async () => expect(await readLinkToken(secret, input)).toBeNull(), input);
    }
  });
});

describe("linkState", () => {
  const link = { revokedAt: null, expiresAt: "2030-01-01T00:00:00.000Z", maxDownloads: 2, downloads: 1 };

  it("H4: reads the clock it is given", () => {
    expect(linkState(link, new Date("2029-12-31T23:59:59.999Z"))).toBe("active");
    expect(linkState(link, new Date("2030-01-01T00:00:00.000Z"))).toBe("expired");
    expect(linkState({ ...link, downloads: 2 }, new Date("2029-01-01"))).toBe("used_up");
    expect(linkState({ ...link, maxDownloads: null, downloads: 1e6 }, new Date("2029-01-01"))).toBe("active");
    expect(linkState({ ...link, revokedAt: "2029-01-01T00:00:00.000Z" }, new Date("2029-06-01"))).toBe(
      "revoked",
    );
  });
});

const b64 = (text: string) => btoa(text).replaceAll("=", "");

describe("keyset cursors", () => {
  it("F5: round-trips ids and refuses anything it did not make", () => {
    for (const id of [1, 42, 2 ** 53 - 1]) expect(decodeCursor(encodeCursor(id))).toBe(id);
    for (const bad of ["", "k1", b64("k0"), b64("k01"), b64("k-1"), b64("k2e3"), b64(`k${2 ** 53}`), "a b"]) {
      expect(decodeCursor(bad), bad).toBeNull();
    }
    expect(CursorQuery.safeParse({ cursor: encodeCursor(7) }).data).toEqual({ cursor: 7, limit: 20 });
    expect(CursorQuery.safeParse({ cursor: "nope" }).success).toBe(false);
  });

  it("H1: a token from before shards (`<id>.<signature>`) still reads, naming no owner", async () => {
    const id = newLinkId();
    const key = await derivedKey(secret, "file-share-link/v1");
    const signed = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(id));
    expect(await readLinkToken(secret, `${id}.${base64url(new Uint8Array(signed))}`)).toEqual({
      id,
      owner: null,
    });
  });

  it("E5: 8 KB of hostile input is refused in milliseconds", () => {
    for (const input of hostile()) {
      expectFast(() => expect(CursorQuery.safeParse({ cursor: input }).success).toBe(false), input);
    }
  });
});
