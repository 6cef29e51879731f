import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { freshIp } from "../helpers/client-ip";
import { request } from "../helpers/http";
import { inOneWindow } from "../helpers/limiter-window";
import { rpc } from "../helpers/mcp";
import {
  authorizeUrl,
  codeFrom,
  grantFor,
  openConsent,
  ORIGIN,
  pkce,
  REDIRECT_URI,
  registerClient,
  RESOURCE,
  submitConsent,
  tokenRequest,
} from "../helpers/oauth";

/** Consent for `user` on a fresh authorization request; the code and the verifier that goes with it. */
async function codeFor(clientId: string, user: { username: string; password: string }) {
  const { verifier, challenge } = await pkce();
  const state = crypto.randomUUID();
  const url = authorizeUrl(clientId, challenge, { state });
  const page = await openConsent(url);
  const answer = await submitConsent(url, page, { username: user.username, password: user.password });
  return { code: codeFrom(answer, state), verifier };
}

const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
  tokenRequest({
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
    ...extra,
  });

const listTools = (token: string, url = RESOURCE) => rpc(token, "tools/list", {}, url);

describe("O2 dynamic client registration", () => {
  it("registers a public client with a loopback redirect URI", async () => {
    const client = await registerClient({ client_name: "Desk assistant" });
    expect(client).toMatchObject({
      client_name: "Desk assistant",
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: "none",
    });
    expect(client.client_secret).toBeUndefined();
  });

  it.each([
    ["a javascript: redirect", { redirect_uris: ["javascript:alert(1)"] }],
    ["plain http off loopback", { redirect_uris: ["http://assistant.example/callback"] }],
    ["a redirect with a fragment", { redirect_uris: ["https://assistant.example/cb#x"] }],
    ["no redirect URI", { redirect_uris: [] }],
  ])("refuses %s", async (_, metadata) => {
    const res = await request(`${ORIGIN}/oauth/register`, {
      method: "POST",
      json: { client_name: "x", token_endpoint_auth_method: "none", ...metadata },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_client_metadata" });
  });

  it("limits registrations per client IP (each one is stored)", async () => {
    // All 22 in one limiter window: across a rollover the count starts again.
    await inOneWindow(15_000, async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 22; i++) {
        const res = await request(`${ORIGIN}/oauth/register`, {
          method: "POST",
          headers: { "CF-Connecting-IP": ip },
          json: { client_name: "x", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" },
        });
        statuses.push(res.status);
        await res.body?.cancel();
      }
      expect(statuses).toContain(429);
      expect(statuses.filter((status) => status === 201).length).toBeLessThanOrEqual(20);
    });
  }, 60_000);
});

describe("O3 authorization code with PKCE", () => {
  it("exchanges a code for tokens bound to /mcp, with the granted scopes", async () => {
    const user = await signUp();
    const client = await registerClient();
    const { code, verifier } = await codeFor(client.client_id, user);
    const tokens = await exchange(client.client_id, code, verifier, { resource: RESOURCE });
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get("Cache-Control")).toBe("no-store");
    expect(tokens.body).toMatchObject({
      token_type: "bearer",
      expires_in: 3600,
      scope: "todos:read",
      resource: RESOURCE,
    });
    expect(tokens.body.refresh_token).toEqual(expect.any(String));
    expect((await listTools(tokens.body.access_token)).status).toBe(200);
  });

  it("sends plain PKCE and a missing challenge back to the client as invalid_request", async () => {
    const client = await registerClient();
    for (const params of [{ code_challenge_method: "plain" }, { code_challenge: undefined }]) {
      const url = authorizeUrl(client.client_id, "x".repeat(43), { ...params, state: "s1" });
      const res = await request(url, { redirect: "manual" });
      expect(res.status, JSON.stringify(params)).toBe(302);
      const location = new URL(res.headers.get("Location")!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
      expect(location.searchParams.get("error")).toBe("invalid_request");
      expect(location.searchParams.get("state")).toBe("s1");
      expect(location.searchParams.get("iss")).toBe(ORIGIN);
    }
  });

  it("refuses a wrong verifier, a wrong redirect URI and another client's code", async () => {
    const user = await signUp();
    const [client, other] = await Promise.all([registerClient(), registerClient()]);
    const wrongVerifier = await codeFor(client.client_id, user);
    const refused = await exchange(client.client_id, wrongVerifier.code, (await pkce()).verifier);
    expect(refused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });

    const wrongRedirect = await codeFor(client.client_id, user);
    const redirected = await exchange(client.client_id, wrongRedirect.code, wrongRedirect.verifier, {
      redirect_uri: "http://127.0.0.1:43110/other",
    });
    expect(redirected.status).toBe(400);

    const foreign = await codeFor(client.client_id, user);
    const stolen = await exchange(other.client_id, foreign.code, foreign.verifier);
    expect(stolen.status).toBe(400);
  });

  it("refuses a code used twice, and revokes the tokens the first use got", async () => {
    const user = await signUp();
    const client = await registerClient();
    const { code, verifier } = await codeFor(client.client_id, user);
    const first = await exchange(client.client_id, code, verifier);
    expect(first.status).toBe(200);
    const second = await exchange(client.client_id, code, verifier);
    expect(second).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await listTools(first.body.access_token)).status).toBe(401);
  });

  it("refuses a resource indicator other than /mcp (invalid_target)", async () => {
    const user = await signUp();
    const client = await registerClient();
    const url = authorizeUrl(client.client_id, (await pkce()).challenge, { resource: `${ORIGIN}/api` });
    const res = await request(url, { redirect: "manual" });
    expect(new URL(res.headers.get("Location")!).searchParams.get("error")).toBe("invalid_target");

    const { code, verifier } = await codeFor(client.client_id, user);
    const tokens = await exchange(client.client_id, code, verifier, {
      resource: "https://elsewhere.example/mcp",
    });
    expect(tokens).toMatchObject({ status: 400, body: { error: "invalid_target" } });
  });
});

const basic = (id: string, secret: string) =>
  `Basic ${btoa(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`;

/** A code exchange that authenticates the client with `auth`: a header, or fields of the body. */
async function exchangeAs(
  code: string,
  verifier: string,
  auth: { header?: string; fields?: Record<string, string> },
) {
  const fields = {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  };
  const res = await request(`${ORIGIN}/oauth/token`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(auth.header ? { Authorization: auth.header } : {}),
    },
    body: new URLSearchParams({ ...fields, ...auth.fields }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

describe("O3 token endpoint authentication of confidential clients", () => {
  it("takes client_secret_basic as registered, and refuses a wrong secret or another method", async () => {
    const user = await signUp();
    const client = await registerClient({ token_endpoint_auth_method: "client_secret_basic" });
    expect(client.client_secret).toEqual(expect.any(String));
    const wrong = await codeFor(client.client_id, user);
    const refused = await exchangeAs(wrong.code, wrong.verifier, {
      header: basic(client.client_id, "not-the-secret"),
    });
    expect(refused).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const other = await codeFor(client.client_id, user);
    const viaPost = { client_id: client.client_id, client_secret: client.client_secret! };
    expect((await exchangeAs(other.code, other.verifier, { fields: viaPost })).status).toBe(401);
    const right = await codeFor(client.client_id, user);
    const tokens = await exchangeAs(right.code, right.verifier, {
      header: basic(client.client_id, client.client_secret!),
    });
    expect(tokens.status).toBe(200);
    expect((await listTools(tokens.body.access_token!)).status).toBe(200);
  });

  it("takes client_secret_post as registered", async () => {
    const user = await signUp();
    const client = await registerClient({ token_endpoint_auth_method: "client_secret_post" });
    const { code, verifier } = await codeFor(client.client_id, user);
    const tokens = await exchange(client.client_id, code, verifier, { client_secret: client.client_secret! });
    expect(tokens.status).toBe(200);
  });
});

describe("O4 refresh with rotation", () => {
  it("rotates the refresh token; the old one works until the new one is used, then never", async () => {
    const grant = await grantFor(await signUp());
    const refresh = (token: string) =>
      tokenRequest({ grant_type: "refresh_token", refresh_token: token, client_id: grant.client.client_id });

    const next = await refresh(grant.refresh_token);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(grant.refresh_token);
    expect(next.body.access_token).not.toBe(grant.access_token);
    expect((await listTools(next.body.access_token)).status).toBe(200);

    // A lost answer can be retried with the previous token, until its successor is used.
    const retried = await refresh(grant.refresh_token);
    expect(retried.status).toBe(200);
    const third = await refresh(retried.body.refresh_token);
    expect(third.status).toBe(200);
    expect((await refresh(grant.refresh_token)).body).toMatchObject({ error: "invalid_grant" });
  });

  it("never widens the grant on refresh: extra scopes are dropped, none granted is invalid_scope", async () => {
    const grant = await grantFor(await signUp());
    const refresh = (token: string, scope: string) =>
      tokenRequest({
        grant_type: "refresh_token",
        refresh_token: token,
        client_id: grant.client.client_id,
        scope,
      });
    const wider = await refresh(grant.refresh_token, "todos:read todos:write");
    expect(wider.status).toBe(200);
    expect(wider.body.scope).toBe("todos:read");
    const none = await refresh(wider.body.refresh_token, "todos:write");
    expect(none).toMatchObject({ status: 400, body: { error: "invalid_scope" } });
  });
});

describe("O5 a token works only at the resource it was issued for", () => {
  it("refuses a token for http://localhost/mcp at another origin's /mcp, and on /api and /agents", async () => {
    const grant = await grantFor(await signUp());
    expect((await listTools(grant.access_token)).status).toBe(200);
    const elsewhere = await listTools(grant.access_token, "http://127.0.0.1/mcp");
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    expect(elsewhere.headers.get("WWW-Authenticate")).toContain(
      'resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"',
    );
    expect((await listTools(grant.access_token, "/mcp")).status).toBe(401);
    expect((await request(`${ORIGIN}/api/todos`, { token: grant.access_token })).status).toBe(401);
    expect((await request(`${ORIGIN}/api/me`, { token: grant.refresh_token })).status).toBe(401);
  });
});
