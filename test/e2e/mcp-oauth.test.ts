// The MCP TypeScript SDK's own client, with its OAuth client provider interface, connecting to /mcp on
// `wrangler dev` the way an AI assistant's "custom connector" does: discovery from the 401, dynamic
// registration, S256 PKCE, a scripted person at the consent page, the code for tokens, tools/list and
// tools/call, then a refresh when the access token stops working.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { createServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { consent } from "../../scripts/lib/oauth-consent.mjs";
import { sharedWorker } from "./shared-worker";
import { fromFreshIp } from "../helpers/client-ip";
import { signUpAt, type RegisteredUser } from "./sign-up";

const worker = sharedWorker();

/** An assistant's side of OAuth: what it stores, and a browser that a person completes. */
class ScriptedAssistant implements OAuthClientProvider {
  readonly redirectUrl = "http://127.0.0.1:43113/callback";
  client?: OAuthClientInformationMixed;
  stored?: OAuthTokens;
  verifier = "";
  /** The code the consent page sent back, for finishAuth(). */
  code = "";
  authorizations = 0;

  constructor(
    private readonly user: RegisteredUser,
    private readonly write: boolean,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK assistant",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation = () => this.client;
  saveClientInformation = (info: OAuthClientInformationMixed) => void (this.client = info);
  tokens = () => this.stored;
  saveTokens = (tokens: OAuthTokens) => void (this.stored = tokens);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;

  async redirectToAuthorization(url: URL) {
    this.authorizations++;
    const { username, password } = this.user;
    const back = await consent(url, {
      username,
      password,
      write: this.write,
      files: false,
      headers: fromFreshIp(),
    });
    expect(`${back.origin}${back.pathname}`).toBe(this.redirectUrl);
    this.code = back.searchParams.get("code")!;
  }
}

/** Connects as an assistant does: the first attempt ends at the consent page, finishAuth, then again. */
async function connectWithOAuth(assistant: ScriptedAssistant) {
  const url = new URL("/mcp", worker.url);
  const first = new StreamableHTTPClientTransport(url, { authProvider: assistant });
  await expect(new Client({ name: "sdk-assistant", version: "1.0.0" }).connect(first)).rejects.toThrow(
    /Unauthorized/,
  );
  await first.finishAuth(assistant.code);
  const client = new Client({ name: "sdk-assistant", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: assistant }));
  return client;
}

describe("/mcp with @modelcontextprotocol/sdk's OAuth client provider against wrangler dev", () => {
  it("registers, authorizes with PKCE, gets tokens, lists and calls tools, and refreshes", async () => {
    const user = await signUpAt(worker.url);
    const assistant = new ScriptedAssistant(user, true);
    const client = await connectWithOAuth(assistant);
    try {
      expect(assistant.client?.client_id).toEqual(expect.any(String));
      expect(assistant.stored).toMatchObject({ token_type: "bearer", scope: "todos:read todos:write" });

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("createTodo");
      const created = await client.callTool({
        name: "createTodo",
        arguments: { title: "Connected by OAuth" },
      });
      expect(created.isError).toBeFalsy();
      const { id } = created.structuredContent as { id: number };
      const rest = await fetch(`${worker.url}/api/todos/${id}`, {
        headers: { Authorization: `Bearer ${user.token}` },
      });
      expect(await rest.json()).toMatchObject({ data: { id, title: "Connected by OAuth" } });

      // The access token stops working (as after an hour): the SDK refreshes by itself and retries.
      const before = assistant.stored!;
      assistant.stored = { ...before, access_token: "1:expired:token" };
      const again = await client.callTool({ name: "getTodo", arguments: { id } });
      expect(again.isError).toBeFalsy();
      expect(assistant.stored.access_token).not.toBe("1:expired:token");
      expect(assistant.stored.refresh_token).not.toBe(before.refresh_token);
      expect(assistant.authorizations).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("refuses a writing tool under a read-only grant with 403 insufficient_scope", async () => {
    const assistant = new ScriptedAssistant(await signUpAt(worker.url), false);
    const client = await connectWithOAuth(assistant);
    try {
      expect(assistant.stored?.scope).toBe("todos:read");
      expect((await client.callTool({ name: "listTodos", arguments: {} })).isError).toBeFalsy();
      await expect(client.callTool({ name: "createTodo", arguments: { title: "no" } })).rejects.toThrow(
        /403/,
      );
    } finally {
      await client.close();
    }
  });
});

describe("clients named by a metadata document under wrangler dev", () => {
  it("O11: never reaches a listener on this machine named as a client's document (127.0.0.1, localhost, its port)", async () => {
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const { port } = listener.address() as AddressInfo;
    try {
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "127.0.0.1", "localhost"]) {
        const url = new URL("/oauth/authorize", worker.url);
        for (const [name, value] of Object.entries({
          response_type: "code",
          client_id: `https://${host}/client.json`,
          redirect_uri: "http://127.0.0.1:43113/callback",
          code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
          code_challenge_method: "S256",
          state: "s",
        })) {
          url.searchParams.set(name, value);
        }
        const res = await fetch(url, { redirect: "manual", headers: fromFreshIp() });
        expect(res.status, host).toBe(400);
        expect(await res.text()).toContain("metadata document could not be read");
      }
      expect(connections).toBe(0);
    } finally {
      listener.close();
    }
  });
});
