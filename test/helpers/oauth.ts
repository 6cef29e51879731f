import { expect } from "vitest";
import type { SignedUpUser } from "./auth";
import { request } from "./http";

// OAuth 2.1 runs on https or on a loopback host: these tests use http://localhost, where the rest of
// the suite's http://service.test has none (oauthIssuer() in src/auth/oauth/oauth-resource.ts).
export const ORIGIN = "http://localhost";
export const RESOURCE = `${ORIGIN}/mcp`;
export const REDIRECT_URI = "http://127.0.0.1:43110/callback";

export interface Client {
  client_id: string;
  client_secret?: string;
  client_name?: string;
  redirect_uris: string[];
}

/** Dynamic client registration (RFC 7591) of a public client, as MCP clients register. */
export async function registerClient(metadata: Record<string, unknown> = {}): Promise<Client> {
  const res = await request(`${ORIGIN}/oauth/register`, {
    method: "POST",
    json: {
      client_name: "Test assistant",
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...metadata,
    },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

const base64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

/** A PKCE verifier and its S256 challenge (RFC 7636). */
export async function pkce() {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

/** The authorization request's URL; `params` override or add (`undefined` leaves one out). */
export function authorizeUrl(
  clientId: string,
  challenge: string,
  params: Record<string, string | undefined> = {},
) {
  const url = new URL(`${ORIGIN}/oauth/authorize`);
  const all: Record<string, string | undefined> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: crypto.randomUUID(),
    scope: "todos:read",
    resource: RESOURCE,
    ...params,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

export interface ConsentPage {
  status: number;
  headers: Headers;
  html: string;
  /** The form's handle, and the cookie that binds it to this "browser". */
  handle: string;
  cookie: string;
}

/** GET of the consent page, as a browser opens it. */
export async function openConsent(url: string): Promise<ConsentPage> {
  const res = await request(url, { redirect: "manual" });
  const html = await res.text();
  const cookie = res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return {
    status: res.status,
    headers: res.headers,
    html,
    handle: /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? "",
    cookie,
  };
}

export interface ConsentAnswer {
  decision?: "approve" | "deny";
  write?: boolean;
  files?: boolean;
  username?: string;
  password?: string;
  handle?: string;
  cookie?: string;
}

/** The form's POST back to the page's URL; the answer is not followed. */
export function submitConsent(url: string, page: ConsentPage, answer: ConsentAnswer) {
  const form = new URLSearchParams({
    handle: answer.handle ?? page.handle,
    decision: answer.decision ?? "approve",
  });
  if (answer.write) form.set("write", "todos:write");
  if (answer.files) form.set("files", "files:read");
  if (answer.username !== undefined) form.set("username", answer.username);
  if (answer.password !== undefined) form.set("password", answer.password);
  return request(url, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: answer.cookie ?? page.cookie },
    body: form.toString(),
  });
}

/** The code in a redirect to the client, after checking its state and issuer. */
export function codeFrom(res: Response, state?: string): string {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("Location")!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  if (state !== undefined) expect(location.searchParams.get("state")).toBe(state);
  expect(location.searchParams.get("iss")).toBe(ORIGIN);
  return location.searchParams.get("code")!;
}

/** A POST to the token endpoint with form fields. */
export async function tokenRequest(fields: Record<string, string>) {
  const res = await request(`${ORIGIN}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

export interface Grant {
  client: Client;
  access_token: string;
  refresh_token: string;
  scope: string;
}

/** The grant an access token belongs to: `<user id>:<grant id>:<secret>`. */
export const grantIdOf = (grant: { access_token: string }) => grant.access_token.split(":")[1]!;

/** The whole flow for `user`: register, consent (`todos:write` if `write`, `files:read` if `files`), code for tokens. */
export async function grantFor(
  user: SignedUpUser,
  { write = false, files = false, client }: { write?: boolean; files?: boolean; client?: Client } = {},
): Promise<Grant> {
  const registered = client ?? (await registerClient());
  const { verifier, challenge } = await pkce();
  const url = authorizeUrl(registered.client_id, challenge);
  const page = await openConsent(url);
  expect(page.status, page.html).toBe(200);
  const answer = await submitConsent(url, page, {
    write,
    files,
    username: user.username,
    password: user.password,
  });
  const code = codeFrom(answer);
  const tokens = await tokenRequest({
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    client_id: registered.client_id,
    code_verifier: verifier,
    resource: RESOURCE,
  });
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  return { client: registered, ...(tokens.body as Omit<Grant, "client">) };
}
