import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { freshIp } from "../helpers/client-ip";
import { request } from "../helpers/http";
import { inOneWindow } from "../helpers/limiter-window";
import {
  authorizeUrl,
  codeFrom,
  openConsent,
  pkce,
  REDIRECT_URI,
  registerClient,
  submitConsent,
  type ConsentPage,
} from "../helpers/oauth";

async function consentFor(metadata: Record<string, unknown> = {}, params: Record<string, string> = {}) {
  const client = await registerClient(metadata);
  const url = authorizeUrl(client.client_id, (await pkce()).challenge, params);
  return { client, url, page: await openConsent(url) };
}

function expectPageHeaders(page: { headers: Headers }) {
  const csp = page.headers.get("Content-Security-Policy")!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/form-action 'self'/);
  expect(csp).not.toContain("script-src");
  expect(page.headers.get("X-Frame-Options")).toBe("DENY");
  expect(page.headers.get("Cache-Control")).toBe("no-store");
  expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
  expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
}

describe("O6 the consent page", () => {
  it("shows who asks and where the tokens go, escaped, not frameable, posting only here and to the client", async () => {
    const { page } = await consentFor({ client_name: `<script>alert("x")</script> & <b>co</b>` });
    expect(page.status).toBe(200);
    expectPageHeaders(page);
    expect(page.headers.get("Content-Security-Policy")).toContain(
      "form-action 'self' http://127.0.0.1:43110;",
    );
    expect(page.html).not.toContain("<script>");
    expect(page.html).not.toContain("<b>co</b>");
    expect(page.html).toContain(
      "&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#60;b&#62;co&#60;/b&#62;",
    );
    expect(page.html).toContain("<strong>127.0.0.1</strong>");
    expect(page.html).toMatch(/program on this computer/);
    expect(page.html).toMatch(/name="write" value="todos:write">/);
    // The form's handle is bound to this browser by a __Host- cookie: Secure, HttpOnly, SameSite.
    const cookie = page.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(
      /^__Host-oauth-consent-[0-9a-f]+=[0-9a-f]+; Path=\/; Secure; HttpOnly; SameSite=Lax/,
    );
  });

  it("ticks the write box when the client asks for todos:write, the files box for files:read", async () => {
    const { page } = await consentFor({}, { scope: "todos:read todos:write" });
    expect(page.html).toMatch(/name="write" value="todos:write" checked>/);
    expect(page.html).toMatch(/name="files" value="files:read">/);
    const files = await consentFor({}, { scope: "todos:read files:read" });
    expect(files.page.html).toMatch(/name="write" value="todos:write">/);
    expect(files.page.html).toMatch(/name="files" value="files:read" checked> Also read your files/);
  });

  it("renders refusals it cannot send back (unknown client, unregistered redirect URI) as escaped pages", async () => {
    const { client } = await consentFor();
    const { challenge } = await pkce();
    for (const url of [
      authorizeUrl("no-such-client", challenge),
      authorizeUrl(client.client_id, challenge, { redirect_uri: "http://127.0.0.1:43110/elsewhere" }),
      authorizeUrl(client.client_id, challenge, { redirect_uri: "https://evil.example/<x>" }),
    ]) {
      const res = await request(url, { redirect: "manual" });
      expect(res.status, url).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
      expectPageHeaders(res);
      expect(await res.text()).not.toContain("<x>");
    }
  });

  it("sends Deny back to the client as access_denied, without a password", async () => {
    const { url, page } = await consentFor({}, { state: "st" });
    const res = await submitConsent(url, page, { decision: "deny" });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("Location")!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("st");
    expect(location.searchParams.get("code")).toBeNull();
  });

  it("shows the page again after a wrong password, keeping the form usable", async () => {
    const user = await signUp();
    const { url, page } = await consentFor();
    for (const [username, password] of [
      [user.username, "wrong password"],
      ["nobody-" + crypto.randomUUID().slice(0, 8), user.password],
    ]) {
      const wrong = await submitConsent(url, page, { username, password });
      expect(wrong.status).toBe(401);
      const html = await wrong.text();
      expect(html).toContain("Invalid username or password");
      expect(html).toContain(`value="${page.handle}"`);
    }
    const right = await submitConsent(url, page, { username: user.username, password: user.password });
    expect(codeFrom(right)).toMatch(/^\d+:/);
  });

  it("is CSRF-safe: a post needs this browser's cookie for this form's handle, once", async () => {
    const user = await signUp();
    const sign = { username: user.username, password: user.password };
    const first = await consentFor();
    const second = await consentFor();
    const noCookie: ConsentPage = { ...first.page, cookie: "" };
    const attempts = [
      submitConsent(first.url, noCookie, sign),
      submitConsent(first.url, first.page, { ...sign, cookie: second.page.cookie }),
      submitConsent(first.url, first.page, { ...sign, handle: second.page.handle }),
      submitConsent(first.url, first.page, { ...sign, handle: "forged" }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
      expect(await res.text()).toMatch(/start again/i);
    }
    expect(codeFrom(await submitConsent(first.url, first.page, sign))).toBeTruthy();
    const replay = await submitConsent(first.url, first.page, sign);
    expect(replay.status).toBe(400);
  });

  it("O13: answers a malformed form (multipart included) with an error page and a large one with 413", async () => {
    const { url, page } = await consentFor();
    const post = (body: string, type = "application/x-www-form-urlencoded") =>
      request(url, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": type, Cookie: page.cookie },
        body,
      });
    for (const body of ["", "handle=x", `handle=${page.handle}&decision=maybe`]) {
      expect((await post(body)).status, body).toBe(400);
    }
    expect((await post(JSON.stringify({ handle: page.handle }), "application/json")).status).toBe(400);
    // A multipart body that does not parse: the refusal page, not a 500.
    for (const [type, body] of [
      ["multipart/form-data; boundary=x", "not multipart at all"],
      ["multipart/form-data", "--x\r\nContent-Disposition: form-data; name=handle\r\n\r\n"],
      ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="handle"\r\n\r\nabc'],
    ] as const) {
      const res = await post(body, type);
      expect(res.status, `${type} ${body}`).toBe(400);
      expect(await res.text()).toContain("The form was incomplete or changed.");
    }
    expect((await post(`handle=${page.handle}&decision=approve&password=${"x".repeat(20_000)}`)).status).toBe(
      413,
    );
  });

  it("limits password attempts like the login (per client IP and username)", async () => {
    const user = await signUp();
    const { url, page } = await consentFor();
    // All 12 attempts in one limiter window: across a rollover the count starts again.
    await inOneWindow(20_000, async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const form = new URLSearchParams({
          handle: page.handle,
          decision: "approve",
          username: user.username,
          password: "nope",
        });
        const res = await request(url, {
          method: "POST",
          redirect: "manual",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Cookie: page.cookie,
            "CF-Connecting-IP": ip,
          },
          body: form.toString(),
        });
        statuses.push(res.status);
        await res.body?.cancel();
      }
      expect(statuses).toContain(429);
      expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    });
  }, 60_000);
});

/** Every key in the OAuth KV namespace (storage is per test file: compare before and after). */
async function kvKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.OAUTH_KV.list({ cursor });
    keys.push(...page.keys.map((key) => key.name));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return keys;
}

describe("O12 the consent page stores nothing until the form decides, and is limited per client address", () => {
  it("a GET writes nothing to KV; a decision spends its handle once", async () => {
    const client = await registerClient();
    const url = authorizeUrl(client.client_id, (await pkce()).challenge);
    const before = await kvKeys();
    for (let i = 0; i < 5; i++) expect((await openConsent(url)).status).toBe(200);
    expect(await kvKeys()).toEqual(before);
    const page = await openConsent(url);
    const denied = await submitConsent(url, page, { decision: "deny" });
    expect(denied.status).toBe(302);
    expect(denied.headers.getSetCookie().join()).toMatch(/^__Host-oauth-consent-[0-9a-f]+=; .*Max-Age=0/);
    const added = (await kvKeys()).filter((key) => !before.includes(key));
    expect(added).toEqual([expect.stringMatching(/^consent-spent:[0-9a-f]{32}$/)]);
    expect((await submitConsent(url, page, { decision: "deny" })).status).toBe(400);
  });

  it("refuses a handle posted to another authorization request (the query changed after the page)", async () => {
    const user = await signUp();
    const { url, page } = await consentFor();
    const widened = new URL(url);
    widened.searchParams.set("scope", "todos:read todos:write");
    const res = await submitConsent(widened.toString(), page, {
      username: user.username,
      password: user.password,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/start again/i);
  });

  it("answers GET and POST past 30 a minute from one client address with a 429 page and Retry-After", async () => {
    const { url, page } = await consentFor();
    await inOneWindow(20_000, async () => {
      const ip = freshIp();
      const answers: Response[] = [];
      for (let i = 0; i < 34; i++) {
        const init =
          i % 2 === 0
            ? { redirect: "manual" as const }
            : {
                method: "POST",
                redirect: "manual" as const,
                headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: page.cookie },
                body: new URLSearchParams({ handle: "forged", decision: "deny" }).toString(),
              };
        answers.push(await request(url, { ...init, headers: { ...init.headers, "CF-Connecting-IP": ip } }));
      }
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(30);
      const refused = answers.find((res) => res.status === 429)!;
      expect(refused.headers.get("Retry-After")).toBe("60");
      expect(refused.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(await refused.text()).toMatch(/Too many requests/);
      // Another address is not held back.
      expect((await openConsent(url)).status).toBe(200);
    });
  }, 60_000);
});
