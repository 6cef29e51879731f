// Plays the person in front of the browser for scripts and end-to-end tests that act as an MCP client:
// opens the consent page of an authorization URL, signs in, allows (or denies), and returns where the
// service sends the browser next: the client's redirect URI with `code`, `state` and `iss`.

const FORM = { "content-type": "application/x-www-form-urlencoded" };

export async function consent(
  authorizationUrl,
  { username, password, write = true, files = true, decision = "approve", headers = {} },
) {
  const page = await fetch(authorizationUrl, { redirect: "manual", headers });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${html.slice(0, 300)}`);
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  if (!handle) throw new Error("consent page without a form");
  // What a browser keeps from the page: the cookie that binds the form to it.
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const form = new URLSearchParams({ handle, decision, username, password });
  if (write) form.set("write", "todos:write");
  if (files) form.set("files", "files:read");
  const answer = await fetch(authorizationUrl, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, ...FORM, cookie },
    body: form,
  });
  const location = answer.headers.get("location");
  if (answer.status !== 302 || !location) throw new Error(`consent: ${answer.status} ${await answer.text()}`);
  return new URL(location);
}

const base64url = (bytes) => Buffer.from(bytes).toString("base64url");

/**
 * The whole authorization code flow with S256 PKCE, without an SDK: registers a public client for
 * `redirectUri`, consents as `user`, and exchanges the code. Answers the token response.
 */
export async function oauthTokens(
  baseUrl,
  user,
  { write = true, files = true, redirectUri = "http://127.0.0.1:43112/callback" } = {},
) {
  const post = async (path, body, headers) => {
    const res = await fetch(new URL(path, baseUrl), { method: "POST", headers, body });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const client = await post(
    "/oauth/register",
    JSON.stringify({
      client_name: "script",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
    }),
    { "content-type": "application/json" },
  );
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const url = new URL("/oauth/authorize", baseUrl);
  const scope = ["todos:read", ...(write ? ["todos:write"] : []), ...(files ? ["files:read"] : [])].join(" ");
  const params = { response_type: "code", client_id: client.client_id, redirect_uri: redirectUri, scope };
  url.search = new URLSearchParams({
    ...params,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }).toString();
  const code = (await consent(url, { ...user, write, files })).searchParams.get("code");
  const fields = {
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  };
  return post("/oauth/token", new URLSearchParams({ ...fields, client_id: client.client_id }), FORM);
}
