// The Agents SDK's MCP client manager is a stand-in here (src/shims/mcp-client-manager.ts, swapped in
// by the build and by these tests' pool): what every agent calls on it at start, on a new socket and
// before a chat turn answers as the SDK's does with no server, and connecting to one fails clearly.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { MCPClientManager as SdkMCPClientManager } from "agents/mcp/client";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { CounterAgent } from "../../src/agents/counter-agent";
import { MCPClientManager } from "../../src/shims/mcp-client-manager";
import { counterPath } from "../helpers/agents";
import { api } from "../helpers/http";
import { connectWS, freshName } from "../helpers/ws";

const NO_SERVERS = { prompts: [], resources: [], servers: {}, tools: [] };

describe("the MCP client manager stand-in", () => {
  it("has every public member of the SDK's manager", () => {
    expectTypeOf<Exclude<keyof SdkMCPClientManager, keyof MCPClientManager>>().toBeNever();
  });

  it("is the agents' started lifecycle capability: the SDK's storage schema, no servers, nothing pending", async () => {
    const name = freshName("mcp");
    expect((await api(counterPath(name))).status).toBe(200);
    await runInDurableObject(env.CounterAgent.getByName(name), async (agent: CounterAgent, ctx) => {
      expect(agent.mcp).toBeInstanceOf(MCPClientManager);
      expect(await ctx.storage.get("cf_agents:mcp_schema_version")).toBe(1);
      const table = ctx.storage.sql.exec(
        "SELECT name FROM sqlite_master WHERE name = 'cf_agents_mcp_servers'",
      );
      expect(table.toArray()).toHaveLength(1);
      expect(agent.getMcpServers()).toEqual(NO_SERVERS);
      await expect(agent.mcp.waitForConnections({ timeout: 10_000 })).resolves.toBeUndefined();
    });
  });

  it("sends a new socket the SDK's empty server list", async () => {
    const socket = await connectWS(counterPath(freshName("mcp")));
    const frame = await socket.waitFor((data) => data?.type === "cf_agent_mcp_servers");
    expect(frame.data.mcp).toEqual(NO_SERVERS);
    socket.close();
  });

  it("claims no request as an OAuth callback: the agent answers it", async () => {
    const res = await api(`${counterPath(freshName("mcp"))}?state=nonce.server-1&code=abc`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 0 });
  });

  it("refuses to add an MCP server with a clear error and stores none", async () => {
    await runInDurableObject(env.CounterAgent.getByName(freshName("mcp")), async (agent: CounterAgent) => {
      await expect(agent.addMcpServer("outside", "https://mcp.example.com/mcp")).rejects.toThrow(
        /MCP client is not bundled/,
      );
      expect(agent.mcp.listServers()).toEqual([]);
    });
  });
});
