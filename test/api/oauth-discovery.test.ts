import { describe, expect, it } from "vitest";
import { api, request } from "../helpers/http";
import { ORIGIN, RESOURCE } from "../helpers/oauth";

const METADATA_URL = `${ORIGIN}/.well-known/oauth-protected-resource/mcp`;

describe("O1 discovery: from a 401 on /mcp to the authorization server", () => {
  it("answers an unauthenticated POST /mcp with 401 and a challenge naming the resource metadata", async () => {
    const res = await api(RESOURCE, {
      method: "POST",
      headers: { Host: "localhost" },
      json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe(
      `Bearer realm="mcp", resource_metadata="${METADATA_URL}", scope="todos:read"`,
    );
    expect(res.headers.get("Access-Control-Expose-Headers")).toContain("WWW-Authenticate");
    expect(res.body).toMatchObject({ success: false, error: { message: "Missing bearer token" } });
  });

  it("says invalid_token, with the same pointers, for a token it does not know", async () => {
    for (const token of ["a.b.c", "1:made:up", "wsk_nope"]) {
      const res = await request(RESOURCE, { method: "POST", token, json: {} });
      expect(res.status, token).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toBe(
        `Bearer realm="mcp", error="invalid_token", resource_metadata="${METADATA_URL}", scope="todos:read"`,
      );
    }
  });

  it("publishes protected resource metadata (RFC 9728) that points at this origin as issuer", async () => {
    const res = await api(METADATA_URL, { headers: { Origin: "https://assistant.example" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      resource: RESOURCE,
      authorization_servers: [ORIGIN],
      scopes_supported: ["todos:read"],
      bearer_methods_supported: ["header"],
      resource_name: "Todos (MCP)",
    });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const preflight = await request(METADATA_URL, {
      method: "OPTIONS",
      headers: {
        Origin: "https://assistant.example",
        "Access-Control-Request-Headers": "mcp-protocol-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("MCP-Protocol-Version");
  });

  it("publishes authorization server metadata (RFC 8414): S256 only, code flow, registration, refresh", async () => {
    const res = await api<Record<string, unknown>>(`${ORIGIN}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      revocation_endpoint: `${ORIGIN}/oauth/token`,
      protected_resources: [RESOURCE],
      scopes_supported: ["todos:read", "todos:write", "files:read"],
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(res.body.grant_types_supported).toEqual(
      expect.arrayContaining(["authorization_code", "refresh_token"]),
    );
    expect(res.body.grant_types_supported).not.toContain("implicit");
    expect(res.body.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(["none", "client_secret_basic", "client_secret_post"]),
    );
  });

  it("serves OAuth only where it can run: plain http off loopback has no pointers and no documents", async () => {
    const res = await request("/mcp", { method: "POST", json: {} });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="mcp"');
    for (const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-authorization-server",
      "/oauth/authorize",
      "/oauth/register",
    ]) {
      expect((await request(path)).status, path).toBe(404);
    }
  });
});
