// The Agents SDK imports the MCP client for agents that connect to outside MCP servers (`this.mcp`);
// CounterAgent and ChatAgent never do. Building its protocol schemas when the module loads was most of
// every isolate's start-up, so the build (scripts/build-worker.mjs) swaps the package for this
// stand-in. The names are those the SDK imports: it constructs the client and transports only when an
// agent connects, and otherwise tests errors with `instanceof`. The service's own MCP server (/mcp)
// does not use the client.

function notBundled(): never {
  throw new Error("The MCP client is not bundled in this Worker: agents here do not connect to MCP servers");
}

export function Client(): never {
  notBundled();
}

export function SSEClientTransport(): never {
  notBundled();
}

export function StreamableHTTPClientTransport(): never {
  notBundled();
}

export class SdkHttpError extends Error {}

export function validateClientMetadataUrl(): never {
  notBundled();
}
