import { afterEach, describe, expect, it, vi } from "vitest";
import { signUp } from "../helpers/auth";
import { api, request } from "../helpers/http";
import { rpc } from "../helpers/mcp";
import {
  authorizeUrl,
  codeFrom,
  openConsent,
  ORIGIN,
  pkce,
  REDIRECT_URI,
  RESOURCE,
  submitConsent,
  tokenRequest,
} from "../helpers/oauth";

// A Client ID Metadata Document client: its client_id is the URL of a JSON document it publishes.
const CLIENT_ID = "https://assistant.example/oauth/client.json";
const DOCUMENT = {
  client_id: CLIENT_ID,
  client_name: "Hosted <assistant>",
  redirect_uris: [REDIRECT_URI],
  token_endpoint_auth_method: "none",
};

/** The Worker's outbound fetch answers for the assistant's host only (the pool shares the isolate). */
function publish(answer: () => Response) {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return url === CLIENT_ID ? Promise.resolve(answer()) : real(input, init);
  });
}

afterEach(() => vi.restoreAllMocks());

describe("O11 clients named by a metadata document (CIMD)", () => {
  it("advertises CIMD, shows the document's domain on the consent page, and issues tokens to it", async () => {
    const metadata = await api<Record<string, unknown>>(`${ORIGIN}/.well-known/oauth-authorization-server`);
    expect(metadata.body.client_id_metadata_document_supported).toBe(true);

    publish(() => Response.json(DOCUMENT, { headers: { "Cache-Control": "no-store" } }));
    const user = await signUp();
    const { verifier, challenge } = await pkce();
    const url = authorizeUrl(CLIENT_ID, challenge);
    const page = await openConsent(url);
    expect(page.status, page.html).toBe(200);
    expect(page.html).toContain("Allow <strong>Hosted &#60;assistant&#62;</strong>");
    expect(page.html).toContain("Published by <strong>assistant.example</strong>.");

    const code = codeFrom(
      await submitConsent(url, page, { username: user.username, password: user.password }),
    );
    const tokens = await tokenRequest({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT_ID,
      code_verifier: verifier,
    });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect((await rpc(tokens.body.access_token, "tools/list", {}, RESOURCE)).status).toBe(200);
  });

  it("renders a document it cannot read, or one that does not match, as a refusal page", async () => {
    const { challenge } = await pkce();
    for (const answer of [
      () => new Response("gone", { status: 404 }),
      () => Response.json({ ...DOCUMENT, client_id: "https://other.example/client.json" }),
      () => Response.json({ ...DOCUMENT, redirect_uris: ["javascript:alert(1)"] }),
    ]) {
      vi.restoreAllMocks();
      publish(answer);
      const res = await request(authorizeUrl(CLIENT_ID, challenge), { redirect: "manual" });
      expect(res.status).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
      expect(await res.text()).toContain("metadata document could not be read");
    }
  });

  it("never fetches an IP literal, a local or private name or another port, and never follows a redirect", async () => {
    const fetched: { url: string; redirect?: string }[] = [];
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.startsWith(ORIGIN)) {
        fetched.push({
          url,
          redirect: init?.redirect ?? (input instanceof Request ? input.redirect : undefined),
        });
        return Promise.resolve(
          new Response(null, { status: 302, headers: { Location: "https://elsewhere.example/client.json" } }),
        );
      }
      return real(input, init);
    });
    const { challenge } = await pkce();
    const refused = [
      "https://127.0.0.1/client.json",
      "https://10.1.2.3/client.json",
      "https://169.254.169.254/latest/meta-data",
      "https://2130706433/client.json",
      "https://0x7f.1/client.json",
      "https://[::1]/client.json",
      "https://localhost/client.json",
      "https://app.localhost/client.json",
      "https://printer.local/client.json",
      "https://metadata.google.internal/client.json",
      "https://router.home.arpa/client.json",
      "https://intranet/client.json",
      "https://assistant.example:8443/client.json",
    ];
    for (const clientId of refused) {
      const res = await request(authorizeUrl(clientId, challenge), { redirect: "manual" });
      expect(res.status, clientId).toBe(400);
      expect(await res.text()).toContain("metadata document could not be read");
      const token = await tokenRequest({ grant_type: "authorization_code", code: "x", client_id: clientId });
      expect(token.status, clientId).toBe(401);
    }
    expect(fetched).toEqual([]);

    // A public document that answers with a redirect: fetched once, the redirect not followed.
    const res = await request(authorizeUrl(CLIENT_ID, challenge), { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(fetched).toEqual([{ url: CLIENT_ID, redirect: "manual" }]);
  });
});
