import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { OAuthGrantListSchema, OAuthGrantSchema } from "../../src/routes/oauth-grants/oauth-grants.schemas";
import { signUp } from "../helpers/auth";
import { createKey } from "../helpers/credentials";
import { api, expectData, expectError } from "../helpers/http";
import { rpc } from "../helpers/mcp";
import { grantFor, grantIdOf, registerClient, RESOURCE } from "../helpers/oauth";

const listGrants = async (token: string) =>
  expectData(await api("/api/oauth/grants", { token }), 200, OAuthGrantListSchema).items;

describe("O9 connected apps: GET /api/oauth/grants and POST /api/oauth/grants/{id}/revoke", () => {
  it("lists the user's grants, newest first, with the client's name, where tokens go and the scopes", async () => {
    const user = await signUp();
    expect(await listGrants(user.token)).toEqual([]);
    await grantFor(user, { client: await registerClient({ client_name: "Reader" }) });
    await grantFor(user, { write: true, client: await registerClient({ client_name: "Writer" }) });
    // Newest first, to the second: these two were made within one.
    const grants = (await listGrants(user.token)).toSorted((a, b) =>
      a.clientName.localeCompare(b.clientName),
    );
    expect(grants).toMatchObject([
      { clientName: "Reader", redirectHost: "127.0.0.1", scopes: ["todos:read"] },
      { clientName: "Writer", redirectHost: "127.0.0.1", scopes: ["todos:read", "todos:write"] },
    ]);
    const { createdAt, expiresAt } = grants[0]!;
    expect(Date.parse(expiresAt!) - Date.parse(createdAt)).toBe(30 * 24 * 3600 * 1000);
    expect(await listGrants((await signUp()).token)).toEqual([]);
  });

  it("keeps one grant per app: consenting again replaces the earlier grant", async () => {
    const user = await signUp();
    const client = await registerClient();
    const first = await grantFor(user, { client });
    await grantFor(user, { client, write: true });
    expect((await listGrants(user.token)).map((grant) => grant.scopes)).toEqual([
      ["todos:read", "todos:write"],
    ]);
    expect((await rpc(first.access_token, "tools/list", {}, RESOURCE)).status).toBe(401);
  });

  it("revokes one grant and leaves the others working", async () => {
    const user = await signUp();
    const [kept, gone] = [await grantFor(user), await grantFor(user)];
    const goneId = grantIdOf(gone);
    const res = await api(`/api/oauth/grants/${goneId}/revoke`, { method: "POST", token: user.token });
    expect(expectData(res, 200, OAuthGrantSchema).id).toBe(goneId);
    expect((await rpc(gone.access_token, "tools/list", {}, RESOURCE)).status).toBe(401);
    expect((await rpc(kept.access_token, "tools/list", {}, RESOURCE)).status).toBe(200);
    expect(await listGrants(user.token)).toHaveLength(1);
    const again = await api(`/api/oauth/grants/${goneId}/revoke`, { method: "POST", token: user.token });
    expectError(again, 404, "Grant not found");
  });

  it("answers 404 for another user's grant, which keeps working", async () => {
    const [alice, bob] = await Promise.all([signUp(), signUp()]);
    const grant = await grantFor(alice);
    const [own] = await listGrants(alice.token);
    expectError(await api(`/api/oauth/grants/${own!.id}/revoke`, { method: "POST", token: bob.token }), 404);
    expect((await rpc(grant.access_token, "tools/list", {}, RESOURCE)).status).toBe(200);
  });

  it.each(["a b", "x".repeat(65), "..%2F..", "%00", "a:b"])("answers 400 for the grant id %j", async (id) => {
    const user = await signUp();
    const res = await api(`/api/oauth/grants/${encodeURIComponent(id)}/revoke`, {
      method: "POST",
      token: user.token,
    });
    expectError(res, 400);
  });

  it("needs a sign-in: API keys, OAuth tokens and no token are refused", async () => {
    const user = await signUp();
    const key = await createKey(user.token, ["todos:read", "todos:write"]);
    expectError(await api("/api/oauth/grants", { token: key.key }), 403, /signed-in session/);
    const grant = await grantFor(user);
    expectError(await api("/api/oauth/grants", { token: grant.access_token }), 401);
    expectError(await api("/api/oauth/grants"), 401);
    expectError(await api("/api/oauth/grants/abc/revoke", { method: "POST", token: key.key }), 403);
  });
});

describe("O10 the hourly cron purges expired grants", () => {
  it("removes a grant past its end with its tokens, and keeps live ones", async () => {
    const user = await signUp();
    const [expired, live] = [await grantFor(user), await grantFor(user)];
    const expiredId = grantIdOf(expired);
    const key = `grant:${user.userId}:${expiredId}`;
    const record = await env.OAUTH_KV.get<Record<string, unknown>>(key, "json");
    await env.OAUTH_KV.put(key, JSON.stringify({ ...record, expiresAt: Math.floor(Date.now() / 1000) - 60 }));

    for (let run = 0; run < 5 && (await env.OAUTH_KV.get(key)) !== null; run++) {
      await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env);
    }
    expect(await env.OAUTH_KV.get(key)).toBeNull();
    expect((await env.OAUTH_KV.list({ prefix: `token:${user.userId}:${expiredId}:` })).keys).toEqual([]);
    expect((await rpc(expired.access_token, "tools/list", {}, RESOURCE)).status).toBe(401);
    expect((await rpc(live.access_token, "tools/list", {}, RESOURCE)).status).toBe(200);
    expect((await listGrants(user.token)).map((grant) => grant.id)).toEqual([
      live.access_token.split(":")[1],
    ]);
  });
});
