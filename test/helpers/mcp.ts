import { expect } from "vitest";
import { BASE, request } from "./http";

export const PROTOCOL = "2025-06-18";
let seq = 0;

/** One JSON-RPC request to /mcp (or `url`); the answer may be JSON or a one-event SSE stream. */
export async function rpc(
  token: string | undefined,
  method: string,
  params: unknown = {},
  url = "/mcp",
  headers: Record<string, string> = {},
) {
  const res = await request(url, {
    method: "POST",
    token,
    // As every HTTP client sends it: the MCP handler checks it on loopback hosts (DNS rebinding).
    headers: {
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": PROTOCOL,
      Host: new URL(url, BASE).host,
      ...headers,
    },
    json: { jsonrpc: "2.0", id: ++seq, method, params },
  });
  const text = await res.text();
  if (!res.ok) return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
  const data = res.headers.get("Content-Type")?.includes("text/event-stream")
    ? text
        .split("\n")
        .find((line) => line.startsWith("data: "))!
        .slice(6)
    : text;
  return { status: res.status, headers: res.headers, text, body: JSON.parse(data) };
}

export const initialize = (token: string) =>
  rpc(token, "initialize", {
    protocolVersion: PROTOCOL,
    capabilities: {},
    clientInfo: { name: "pool-test", version: "1" },
  });

export async function callTool(token: string, name: string, args: unknown, url = "/mcp") {
  const res = await rpc(token, "tools/call", { name, arguments: args }, url);
  expect(res.status).toBe(200);
  return res.body;
}
